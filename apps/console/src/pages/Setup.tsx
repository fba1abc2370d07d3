import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ok } from '../api.ts';
import { ME_KEY, type Me, signOut } from '../app/session.tsx';
import { ErrorNotice } from '../ui/ui.tsx';

/**
 * A signed-in user before the workspace exists: the bootstrap form. After it exists, a user without a role is told
 * how to get one.
 */
export function SetupPage({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  useEffect(() => {
    document.title = `${me.needs_bootstrap ? 'Set up' : 'No access'} · Statboard`;
  }, [me.needs_bootstrap]);
  const bootstrap = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v1/setup/bootstrap', {
          body: { token: token.trim(), ...(name.trim() ? { workspace_name: name.trim() } : {}) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
  if (!me.needs_bootstrap) {
    return (
      <main className="standalone" id="main">
        <div className="card narrow">
          <h1>No access yet</h1>
          <p>
            You are signed in as <strong>{me.display_name}</strong>
            {me.email ? ` (${me.email})` : ''}, but you have no role in this workspace. Ask an owner or admin to give
            you one on the console's Users page, then reload this page.
          </p>
          <p className="small muted">
            If they cannot find you by email, give them your user id: <code>{me.id}</code>
          </p>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </main>
    );
  }
  return (
    <main className="standalone" id="main">
      <div className="card narrow">
        <h1>Set up Statboard</h1>
        <p>
          Welcome, {me.display_name}. Create your workspace: you become its owner, and can then register your servers,
          start a season and create the key the mod uploads with.
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            bootstrap.mutate();
          }}
        >
          <label htmlFor="bootstrap-token">Bootstrap token</label>
          <input
            id="bootstrap-token"
            name="token"
            autoComplete="off"
            spellCheck={false}
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
            aria-describedby="bootstrap-token-help"
          />
          <p id="bootstrap-token-help" className="small muted">
            The service printed it in its log at its first start (the line <code>bootstrap token: …</code>), or set it
            with <code>BOOTSTRAP_TOKEN</code>. A new one: <code>npx statboard bootstrap-token</code>.
          </p>
          <label htmlFor="workspace-name">Workspace name (optional)</label>
          <input
            id="workspace-name"
            name="workspace_name"
            maxLength={120}
            placeholder="My Network"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <ErrorNotice error={bootstrap.error} title="The workspace was not created" />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={bootstrap.isPending}>
              {bootstrap.isPending ? 'Creating…' : 'Create workspace'}
            </button>
            <button type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </form>
      </div>
    </main>
  );
}
