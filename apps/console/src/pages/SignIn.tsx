import { useEffect } from 'react';
import { signInUrl } from '../app/session.tsx';

/** What a visitor without a session sees, whatever page they asked for. */
export function SignInPage() {
  useEffect(() => {
    document.title = 'Sign in · Statboard';
  }, []);
  return (
    <main className="standalone" id="main">
      <div className="card narrow">
        <p className="brand-line">
          <img src="/favicon.svg" alt="" width="32" height="32" /> Statboard
        </p>
        <h1>Sign in</h1>
        <p>
          The console is where you manage your network's statistics: servers, seasons, API keys for the mod and your
          website, players, leaderboards, webhooks and who may change what.
        </p>
        <a className="button primary" href={signInUrl()}>
          Sign in
        </a>
        <p className="small muted">
          You sign in with your organisation's identity provider (OpenID Connect). The first person to sign in creates
          the workspace with the bootstrap token from the service's log.
        </p>
      </div>
    </main>
  );
}
