import { createStatboardClient, ok, type Schemas, StatboardError } from '@statboard/sdk';

/** The console's one client: same origin, authenticated by the session cookie. */
export const api = createStatboardClient();

export type { Schemas };
export { ok, StatboardError };

/** The roles, from the least to the most allowed. */
export type Role = NonNullable<Schemas['AdminMe']['role']>;

/**
 * What a role allows, as `GET /admin/me` lists it for the signed-in user (`permissions`): the service's rules,
 * never a copy of them here.
 */
export type Permission = Schemas['AdminMe']['permissions'][number];

export const ROLE_LABEL: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  analyst: 'Analyst',
  readonly: 'Read-only',
};

export const ROLE_EXPLAINED: Record<Role, string> = {
  owner: 'everything, including granting and taking the owner role, and erasing players',
  admin:
    "keys, servers, seasons, webhooks, the roles of users other than owners, and removing players' wrong values; reads users and the audit log",
  analyst: 'player visibility and statistic definitions; reads the rest except users and the audit log',
  readonly: 'reads players, statistics, keys, servers, seasons and activity; changes nothing',
};
