/** Workspace roles, from most to least privileged. */
export const ROLES = ['owner', 'admin', 'analyst', 'readonly'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a role may do on the admin API. All four read admin data, except users and the audit log (admin);
 * analysts also change player visibility and statistic definitions; admins also change keys, servers and
 * seasons and set roles other than owner; owners also grant owner.
 */
export type Permission = 'read' | 'read:users' | 'write:players' | 'write:config' | 'write:users';

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: ['read', 'read:users', 'write:players', 'write:config', 'write:users'],
  admin: ['read', 'read:users', 'write:players', 'write:config', 'write:users'],
  analyst: ['read', 'write:players'],
  readonly: ['read'],
};

export function allows(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}
