-- Whether the identity provider said the user's email is verified (the OIDC `email_verified` claim, read from the
-- same source as the email). Only a verified email names a user when a role is given by email: anyone can sign in
-- at some providers with an address they do not own. Existing users start unverified, as nothing recorded it; their
-- next login sets it from the provider, and until then a role is given to them by their id.
ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
