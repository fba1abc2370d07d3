import { need, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { seasonRoutes } from './routes.ts';
import { type Season, SeasonService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Seasons: statistics are kept per season; ingest writes into the active one. */
    readonly seasons: SeasonService;
  }
}

/** `--started-at none` clears the time (the body's null); omitted, it stays as it is. */
function timeOption(value: string | undefined): string | null | undefined {
  return value === 'none' ? null : value;
}

function flags(s: Season): string {
  return `${s.active ? ' (active)' : ''}${s.scoring === 'gains' ? ' (gains)' : ''}`;
}

function seasonLine(s: Season): string {
  return `${s.slug} ${s.id}${flags(s)}`;
}

export const seasonsFeature = {
  name: 'seasons',
  services: { seasons: (s) => new SeasonService(s.db, s.changes, s.audit, s.outbox) },
  routes: (s, { key, admin }) => ({ v1: [seasonRoutes(s.seasons, { key, admin })] }),
  cli: [
    {
      name: 'season create',
      usage:
        '--workspace W --name N --slug S [--scoring absolute|gains] [--activate] [--started-at ISO] [--ended-at ISO]',
      run: async (s, v) => {
        const season = await s.seasons.create(CLI_ACTOR, await workspaceOf(s.workspaces, v), {
          name: need(v, 'name'),
          slug: need(v, 'slug'),
          active: v.activate === true,
          started_at: v['started-at'],
          ended_at: v['ended-at'],
          scoring: v.scoring,
        });
        return { json: { data: season }, text: `Created season ${seasonLine(season)}` };
      },
    },
    {
      name: 'season update',
      usage:
        '--workspace W --season ID|SLUG [--name N] [--slug S] [--scoring absolute|gains] [--started-at ISO|none] [--ended-at ISO|none]',
      run: async (s, v) => {
        const ws = await workspaceOf(s.workspaces, v);
        const season = await s.seasons.update(CLI_ACTOR, ws, need(v, 'season'), {
          name: v.name,
          slug: v.slug,
          scoring: v.scoring,
          started_at: timeOption(v['started-at']),
          ended_at: timeOption(v['ended-at']),
        });
        return { json: { data: season }, text: `Updated season ${seasonLine(season)}` };
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
          text: all.map((x) => `${x.id}  ${x.slug}  ${x.name}${flags(x)}`).join('\n') || 'No seasons.',
        };
      },
    },
  ],
} satisfies Feature;
