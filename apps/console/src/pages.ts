import type { Permission } from './api.ts';

/**
 * The console's pages, once: the router's routes, the navigation, and the list of page paths the build writes to
 * `dist/pages.json` (vite.config.ts), where the service reads which paths answer with the console (a reload of
 * `/players/…` works). Plain data, so the build can read it without React.
 */

export const NAV_GROUPS = ['Activity', 'Data', 'Setup', 'Team'] as const;

export interface ConsolePage {
  /** The route (`:name` parameters, as the service's router writes them too). */
  path: string;
  /** The component: the export of the same name in `pages/<component>.tsx`, loaded on first visit. */
  component: string;
  /**
   * In the navigation under this heading, with this label (and the number `/admin/me` gives under `count`, when
   * more than 0); pages without one are reached by links.
   */
  nav?: { group: (typeof NAV_GROUPS)[number]; label: string; count?: 'open_reviews' };
  /** Listed in the navigation only for roles with this permission (the page itself says why it shows nothing). */
  permission?: Permission;
}

export const PAGES: readonly ConsolePage[] = [
  { path: '/', component: 'Overview', nav: { group: 'Activity', label: 'Overview' } },
  { path: '/online', component: 'Online', nav: { group: 'Activity', label: 'Online now' } },
  { path: '/leaderboards', component: 'Leaderboards', nav: { group: 'Activity', label: 'Leaderboards' } },
  { path: '/review', component: 'Review', nav: { group: 'Activity', label: 'Review', count: 'open_reviews' } },
  { path: '/players', component: 'Players', nav: { group: 'Data', label: 'Players' } },
  { path: '/players/:uuid', component: 'Player' },
  { path: '/stats', component: 'Stats', nav: { group: 'Data', label: 'Statistics' } },
  { path: '/seasons', component: 'Seasons', nav: { group: 'Data', label: 'Seasons' } },
  { path: '/servers', component: 'Servers', nav: { group: 'Setup', label: 'Servers' } },
  { path: '/keys', component: 'Keys', nav: { group: 'Setup', label: 'API keys' } },
  { path: '/webhooks', component: 'Webhooks', nav: { group: 'Setup', label: 'Webhooks' } },
  { path: '/webhooks/:id', component: 'Webhook' },
  { path: '/public-site', component: 'PublicSite', nav: { group: 'Setup', label: 'Public site' } },
  { path: '/users', component: 'Users', nav: { group: 'Team', label: 'Users and roles' }, permission: 'read:users' },
  { path: '/audit-log', component: 'AuditLog', nav: { group: 'Team', label: 'Audit log' }, permission: 'read:users' },
  // Where the CLI and the start-up log send people with a bootstrap token; the header links to it.
  { path: '/setup', component: 'JoinWorkspace' },
];
