import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link, matchPath, NavLink, useLocation, useNavigate } from 'react-router';
import { ROLE_LABEL } from '../api.ts';
import { NAV_GROUPS, PAGES } from '../pages.ts';
import { Loading } from '../ui/ui.tsx';
import { signOut, useCan, useChooseWorkspace, useMe } from './session.tsx';

/**
 * The header's choice of workspace, for a user who belongs to several: the service remembers it, and every page
 * then reads the chosen workspace. A page of one record (a player, a webhook) gives way to the overview, as that
 * record belongs to the workspace left.
 */
function WorkspacePicker() {
  const me = useMe();
  const choose = useChooseWorkspace();
  const location = useLocation();
  const navigate = useNavigate();
  if (me.workspaces.length < 2) return null;
  const onRecord = PAGES.some((p) => p.path.includes(':') && matchPath(p.path, location.pathname));
  return (
    <select
      className="workspace-picker"
      aria-label="Workspace"
      value={me.workspace_id}
      disabled={choose.isPending}
      onChange={(e) => choose.mutate(e.target.value, { onSuccess: () => (onRecord ? navigate('/') : undefined) })}
    >
      {me.workspaces.map((w) => (
        <option key={w.id} value={w.id}>
          {w.name}
        </option>
      ))}
    </select>
  );
}

const JOIN = 'Join a workspace with a token';

/** The signed-in console: header, navigation (a menu button below 52rem), the page. */
export function Shell({ children }: { children: ReactNode }) {
  const me = useMe();
  const can = useCan();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // A new page (not the first load): close the phone menu and move focus to the page, as a new document would.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only
  useEffect(() => {
    setMenuOpen(false);
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
  }, [location.pathname]);
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button
          type="button"
          className="menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((o) => !o)}
        >
          Menu
        </button>
        <a className="brand" href="/">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          Statboard
        </a>
        <div className="who">
          <WorkspacePicker />
          {/* A token made for a workspace (the CLI's bootstrap-token --workspace) adds it to the user's. */}
          <Link className="join-link" to="/setup">
            {JOIN}
          </Link>
          <span className="muted">
            {me.display_name}
            {me.role ? ` · ${ROLE_LABEL[me.role]}` : ''}
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <div className="frame">
        <nav id="site-nav" aria-label="Console" className={menuOpen ? 'open' : undefined}>
          {NAV_GROUPS.map((group) => {
            const items = PAGES.filter((p) => p.nav?.group === group && (!p.permission || can(p.permission)));
            if (items.length === 0) return null;
            return (
              <div key={group} className="nav-group">
                <p className="nav-heading">{group}</p>
                <ul>
                  {items.map((p) => (
                    <li key={p.path}>
                      <NavLink to={p.path} end={p.path === '/'}>
                        {p.nav?.label}
                        {p.nav?.count && me[p.nav.count] > 0 ? (
                          <span className="nav-count"> ({me[p.nav.count]} open)</span>
                        ) : null}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
          <p className="nav-join">
            <Link to="/setup">{JOIN}</Link>
          </p>
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          <Suspense fallback={<Loading lines={6} />}>{children}</Suspense>
        </main>
      </div>
    </div>
  );
}
