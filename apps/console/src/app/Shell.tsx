import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { CAN, ROLE_LABEL } from '../api.ts';
import { Loading } from '../ui/ui.tsx';
import { signOut, useMe } from './session.tsx';

interface Item {
  to: string;
  label: string;
  /** Shown to these roles only (others would get 403). */
  visible?: (role: ReturnType<typeof useMe>['role']) => boolean;
}

const NAV: { heading: string; items: Item[] }[] = [
  {
    heading: 'Activity',
    items: [
      { to: '/', label: 'Overview' },
      { to: '/online', label: 'Online now' },
      { to: '/leaderboards', label: 'Leaderboards' },
    ],
  },
  {
    heading: 'Data',
    items: [
      { to: '/players', label: 'Players' },
      { to: '/stats', label: 'Statistics' },
      { to: '/seasons', label: 'Seasons' },
    ],
  },
  {
    heading: 'Setup',
    items: [
      { to: '/servers', label: 'Servers' },
      { to: '/keys', label: 'API keys' },
      { to: '/webhooks', label: 'Webhooks' },
    ],
  },
  {
    heading: 'Team',
    items: [
      { to: '/users', label: 'Users and roles', visible: CAN.administer },
      { to: '/audit-log', label: 'Audit log', visible: CAN.administer },
    ],
  },
];

/** The signed-in console: header, navigation (a menu button below 52rem), the page. */
export function Shell({ children }: { children: ReactNode }) {
  const me = useMe();
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
          {NAV.map((group) => {
            const items = group.items.filter((i) => !i.visible || i.visible(me.role));
            if (items.length === 0) return null;
            return (
              <div key={group.heading} className="nav-group">
                <p className="nav-heading">{group.heading}</p>
                <ul>
                  {items.map((i) => (
                    <li key={i.to}>
                      <NavLink to={i.to} end={i.to === '/'}>
                        {i.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </div>
            );
          })}
        </nav>
        <main id="main" ref={main} tabIndex={-1}>
          <Suspense fallback={<Loading lines={6} />}>{children}</Suspense>
        </main>
      </div>
    </div>
  );
}
