import type { Role } from './roles.ts';

/**
 * A signed-in user as the admin guards see them: who, and their role in the workspace the session acts in (the
 * one chosen in the session, else their oldest membership; null: no membership).
 */
export interface Principal {
  userId: string;
  displayName: string;
  email: string | null;
  workspaceId: string | null;
  role: Role | null;
}

/** A signed-in user with a role in a workspace. */
export interface Member extends Principal {
  workspaceId: string;
  role: Role;
}

/**
 * Who makes a change, and through which request: a signed-in user over HTTP, or a label such as `cli` where
 * there is no user. Every change operation of the services takes one and writes it into its audit record.
 */
export interface Actor {
  userId: string | null;
  label: string | null;
  ip: string | null;
  requestId: string | null;
}
