import { createStatboardClient, ok, type Schemas, StatboardError } from '@statboard/sdk';

/** The console's one client: same origin, authenticated by the session cookie. */
export const api = createStatboardClient();

export type { Schemas };
export { ok, StatboardError };

/** The roles, from the least to the most allowed. */
export type Role = NonNullable<Schemas['AdminMe']['role']>;

/** What each role may change (reads: every role, except users and the audit log: admins and owners). */
export const CAN = {
  /** Player visibility, statistic definitions. */
  curate: (r: Role | null) => r === 'analyst' || r === 'admin' || r === 'owner',
  /** Keys, servers, seasons, webhooks; user roles other than owner. */
  configure: (r: Role | null) => r === 'admin' || r === 'owner',
  /** Users and the audit log are read by admins and owners only. */
  administer: (r: Role | null) => r === 'admin' || r === 'owner',
  /** Granting and taking the owner role. */
  own: (r: Role | null) => r === 'owner',
};

export const ROLE_LABEL: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  analyst: 'Analyst',
  readonly: 'Read-only',
};

export const ROLE_EXPLAINED: Record<Role, string> = {
  owner: 'everything, including granting and taking the owner role',
  admin: 'keys, servers, seasons, webhooks and the roles of users other than owners; reads users and the audit log',
  analyst: 'player visibility and statistic definitions; reads the rest except users and the audit log',
  readonly: 'reads players, statistics, keys, servers, seasons and activity; changes nothing',
};
