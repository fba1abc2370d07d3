import { need, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { seasonRoutes } from './routes.ts';
import { SeasonService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Seasons: statistics are kept per season; ingest writes into the active one. */
    readonly seasons: SeasonService;
  }
}

export const seasonsFeature = {
  name: 'seasons',
  services: { seasons: (s) => new SeasonService(s.db, s.changes, s.audit, s.outbox) },
  routes: (s, { key, admin }) => ({ v1: [seasonRoutes(s.seasons, { key, admin })] }),
  cli: [
    {
      name: 'season create',
      usage: '--workspace W --name N --slug S [--activate] [--started-at ISO] [--ended-at ISO]',
      run: async (s, v) => {
        const season = await s.seasons.create(CLI_ACTOR, await workspaceOf(s.workspaces, v), {
          name: need(v, 'name'),
          slug: need(v, 'slug'),
          active: v.activate === true,
          started_at: v['started-at'],
          ended_at: v['ended-at'],
        });
        return {
          json: { data: season },
          text: `Created season ${season.slug} ${season.id}${season.active ? ' (active)' : ''}`,
        };
      },
    },
    {
      name: 'season activate',
      usage: '--workspace W --season ID|SLUG',
      run: async (s, v) => {
        const season = await s.seasons.activate(CLI_ACTOR, await workspaceOf(s.workspaces, v), need(v, 'season'));
        return { json: { data: season }, text: `Activated season ${season.slug} ${season.id}` };
      },
    },
    {
      name: 'season list',
      usage: '--workspace W',
      run: async (s, v) => {
        const all = await s.seasons.list(await workspaceOf(s.workspaces, v));
        return {
          json: { data: all },
          text:
            all.map((x) => `${x.id}  ${x.slug}  ${x.name}${x.active ? ' (active)' : ''}`).join('\n') || 'No seasons.',
        };
      },
    },
  ],
} satisfies Feature;
