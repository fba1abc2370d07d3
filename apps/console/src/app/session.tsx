import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import { api, ok, type Permission, type Schemas, StatboardError } from '../api.ts';

export type Me = Schemas['AdminMe'];

const MeContext = createContext<Me | null>(null);

/** The signed-in user (inside the signed-in part of the console). */
export function useMe(): Me & { workspace_id: string } {
  const me = useContext(MeContext);
  if (!me?.workspace_id) throw new Error('useMe outside a signed-in workspace');
  return me as Me & { workspace_id: string };
}

/** Whether the signed-in user's role allows `permission` in the workspace they act in (from `/admin/me`). */
export function useCan(): (permission: Permission) => boolean {
  const permissions = useContext(MeContext)?.permissions ?? [];
  return (permission) => permissions.includes(permission);
}

export const ME_KEY = ['me'] as const;

/** `GET /admin/me`: null when nobody is signed in (401). */
export function useSession() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async () => {
      try {
        return await ok(api.GET('/api/v1/admin/me'));
      } catch (e) {
        if (e instanceof StatboardError && e.status === 401) return null;
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

/**
 * Acts in another of the user's workspaces (the service remembers the choice): then every page reads its data
 * again, from the chosen workspace. A refusal (the membership just ended) reads who is signed in again, which
 * shows the workspaces that remain.
 */
export function useChooseWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => ok(api.PUT('/api/v1/admin/me/workspace', { body: { id } })),
    onSuccess: (me) => showWorkspace(queryClient, me),
    onError: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
}

/** `me`, the answer to a choice of workspace, becomes who is signed in; every page reads its data again. */
async function showWorkspace(queryClient: QueryClient, me: Me): Promise<void> {
  queryClient.setQueryData(ME_KEY, me);
  await queryClient.resetQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
}

/**
 * After a bootstrap token made the user owner of `workspaceId`: act in it, so the console shows the workspace just
 * joined. The token is redeemed whatever happens here, so a refused choice is no failure of the form: who is
 * signed in is read again, and the console shows what the service says.
 */
export async function enterWorkspace(queryClient: QueryClient, workspaceId: string): Promise<void> {
  try {
    await showWorkspace(queryClient, await ok(api.PUT('/api/v1/admin/me/workspace', { body: { id: workspaceId } })));
  } catch {
    await queryClient.invalidateQueries({ queryKey: ME_KEY });
  }
}

export function SessionProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <MeContext.Provider value={me}>{children}</MeContext.Provider>;
}

/** Starts a login that comes back to the page the visitor is on. */
export function signInUrl(): string {
  const here = `${location.pathname}${location.search}`;
  return `/auth/login?return_to=${encodeURIComponent(here === '/sign-in' ? '/' : here)}`;
}

/** Ends the session and reloads the console (which then shows the sign-in page). */
export async function signOut(): Promise<void> {
  await fetch('/auth/logout', { method: 'POST', headers: { accept: 'application/json' } });
  location.assign('/');
}
