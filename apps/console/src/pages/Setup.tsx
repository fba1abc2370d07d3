import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type Me, signOut } from '../app/session.tsx';
import { TokenForm } from '../app/token-form.tsx';

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
