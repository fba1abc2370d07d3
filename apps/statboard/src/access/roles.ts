/** Workspace roles, from most to least privileged. */
export const ROLES = ['owner', 'admin', 'analyst', 'readonly'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a role may do on the admin API. All four read admin data, except users and the audit log (`read:users`);
 * analysts also change player visibility and statistic definitions (`write:players`); admins also change keys,
 * servers, seasons and webhooks (`write:config`) and set roles other than owner (`write:users`); owners also
 * grant and take the owner role (`grant:owner`). Admins and owners remove a player's values (`remove:values`); only
 * owners erase a player and block or unblock their uploads (`erase:players`). `GET /admin/me` lists the signed-in user's, so the console
 * shows what the role allows without a copy of these rules.
 */
export const PERMISSIONS = [
  'read',
  'read:users',
  'write:players',
  'write:config',
  'write:users',
  'grant:owner',
  'remove:values',
  'erase:players',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: [
    'read',
    'read:users',
    'write:players',
    'write:config',
    'write:users',
    'grant:owner',
    'remove:values',
    'erase:players',
  ],
  admin: ['read', 'read:users', 'write:players', 'write:config', 'write:users', 'remove:values'],
  analyst: ['read', 'write:players'],
  readonly: ['read'],
};

export function allows(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** The permissions of a role (none without one), in the order of PERMISSIONS. */
export function permissionsOf(role: Role | null): readonly Permission[] {
  return role === null ? [] : GRANTS[role];
}
