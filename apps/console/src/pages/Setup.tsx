import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { api, ok } from '../api.ts';
import { ME_KEY, type Me, signOut } from '../app/session.tsx';
import { ErrorNotice } from '../ui/ui.tsx';

/**
 * A bootstrap token redeemed by the signed-in user: a plain one creates the first workspace, one made with
 * `npx statboard bootstrap-token --workspace W` (or logged at start for a workspace nobody owns) makes them owner
 * of W, whatever roles they have elsewhere. Afterwards the console asks again who they are.
 */
function TokenForm({
  submit,
  pending,
  withName = false,
  extra,
  onDone,
}: {
  submit: string;
  pending: string;
  withName?: boolean;
  extra?: ReactNode;
  onDone?: () => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const redeem = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v1/setup/bootstrap', {
          body: { token: token.trim(), ...(withName && name.trim() ? { workspace_name: name.trim() } : {}) },
        }),
      ),
    onSuccess: async () => {
      setToken('');
      await queryClient.invalidateQueries({ queryKey: ME_KEY });
      onDone?.();
    },
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        redeem.mutate();
      }}
    >
      <label htmlFor={`${id}-token`}>Bootstrap token</label>
      <input
        id={`${id}-token`}
        name="token"
        autoComplete="off"
        spellCheck={false}
        required
        value={token}
        onChange={(e) => setToken(e.target.value)}
        aria-describedby={`${id}-help`}
      />
      <p id={`${id}-help`} className="small muted">
        The service prints one in its log (the line <code>bootstrap token: stb_bootstrap_…</code>) when it starts with
        no workspace, or with a workspace nobody owns yet; or set <code>BOOTSTRAP_TOKEN</code>. A new one:{' '}
        <code>npx statboard bootstrap-token</code>, or <code>npx statboard bootstrap-token --workspace SLUG</code> to
        become owner of a workspace made with the CLI.
      </p>
      {withName ? (
        <>
          <label htmlFor={`${id}-name`}>Workspace name (optional)</label>
          <input
            id={`${id}-name`}
            name="workspace_name"
            maxLength={120}
            placeholder="My Network"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </>
      ) : null}
      <ErrorNotice error={redeem.error} title="The token was not accepted" />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={redeem.isPending}>
          {redeem.isPending ? pending : submit}
        </button>
        {extra}
      </div>
    </form>
  );
}

const signOutButton = (
  <button type="button" onClick={() => void signOut()}>
    Sign out
  </button>
);

/**
 * A signed-in user before the workspace exists: the bootstrap form. After it exists, a user without a role is told
 * how to get one: from an owner or admin, or with a bootstrap token for a workspace (one made with the CLI).
 */
export function SetupPage({ me }: { me: Me }) {
  const navigate = useNavigate();
  const location = useLocation();
  // In: from `/setup` (where the CLI and the log send people) to the overview; from any other page, that page.
  const enter = () => {
    if (location.pathname === '/setup') navigate('/', { replace: true });
  };
  useEffect(() => {
    document.title = `${me.needs_bootstrap ? 'Set up' : 'No access'} · Statboard`;
  }, [me.needs_bootstrap]);
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
          <h2>Have a bootstrap token?</h2>
          <p>
            A workspace made with the CLI has no owner until someone enters a token made for it. Enter it here to become
            its owner.
          </p>
          <TokenForm submit="Join workspace" pending="Joining…" extra={signOutButton} onDone={enter} />
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
        <TokenForm submit="Create workspace" pending="Creating…" withName extra={signOutButton} onDone={enter} />
      </div>
    </main>
  );
}

/**
 * `/setup` for a user who has a role already: redeem a token made for another workspace (`npx statboard
 * bootstrap-token --workspace W`) and become its owner too.
 */
export function JoinWorkspace() {
  const [joined, setJoined] = useState(false);
  useEffect(() => {
    document.title = 'Join a workspace · Statboard';
  }, []);
  return (
    <>
      <h1>Join a workspace with a token</h1>
      <p>
        A bootstrap token made for a workspace makes whoever enters it an owner of that workspace, besides the roles
        they have already.
      </p>
      {joined ? (
        <p className="notice" role="status">
          Done: you are an owner of the workspace the token was made for.
        </p>
      ) : null}
      <TokenForm submit="Join workspace" pending="Joining…" onDone={() => setJoined(true)} />
    </>
  );
}
