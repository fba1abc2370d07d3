import type { Feature, Kit, Services } from './feature.ts';
import { apiKeysFeature } from './modules/api-keys/feature.ts';
import { auditLogFeature } from './modules/audit-log/feature.ts';
import { authFeature } from './modules/auth/feature.ts';
import { healthFeature } from './modules/health/feature.ts';
import { historyFeature } from './modules/history/feature.ts';
import { importFeature } from './modules/import/feature.ts';
import { ingestFeature } from './modules/ingest/feature.ts';
import { leaderboardsFeature } from './modules/leaderboards/feature.ts';
import { meFeature } from './modules/me/feature.ts';
import { onlineFeature } from './modules/online/feature.ts';
import { playersFeature } from './modules/players/feature.ts';
import { publicSiteFeature } from './modules/public-site/feature.ts';
import { screeningFeature } from './modules/screening/feature.ts';
import { seasonsFeature } from './modules/seasons/feature.ts';
import { serversFeature } from './modules/servers/feature.ts';
import { sessionsFeature } from './modules/sessions/feature.ts';
import { setupFeature } from './modules/setup/feature.ts';
import { statsFeature } from './modules/stats/feature.ts';
import { usersFeature } from './modules/users/feature.ts';
import { webhooksFeature } from './modules/webhooks/feature.ts';
import { workspacesFeature } from './modules/workspaces/feature.ts';

/**
 * The registration table: every feature of the service, once. Services are made in whatever order their
 * dependencies need; routes, OpenAPI components and CLI commands are registered (and listed in the usage text) in
 * this order.
 */
const LISTED = [
  workspacesFeature,
  authFeature,
  healthFeature,
  ingestFeature,
  screeningFeature,
  playersFeature,
  leaderboardsFeature,
  historyFeature,
  onlineFeature,
  seasonsFeature,
  apiKeysFeature,
  serversFeature,
  statsFeature,
  usersFeature,
  auditLogFeature,
  webhooksFeature,
  meFeature,
  setupFeature,
  importFeature,
  sessionsFeature,
  publicSiteFeature,
] as const;

export const FEATURES: readonly Feature[] = LISTED;

type Listed = (typeof LISTED)[number];
type MadeBy<F> =
  | (F extends { services: infer S } ? keyof S : never)
  | (F extends { shared: infer S } ? keyof S : never);
type Unmade = Exclude<keyof Services, MadeBy<Listed> | keyof Kit | 'transaction' | 'flush'>;
type None<T extends never> = T;
/** Every service a feature declares (in `Services`) is made by a listed feature: else the compiler names it here. */
export type EveryServiceIsMade = None<Unmade>;
