import { bool, need, num, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { publicStatRoutes, statRoutes } from './routes.ts';
import { PublicStat, StatDefinition } from './schemas.ts';
import { StatDefinitionService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Statistic definitions: visibility, display names, units, sort order. */
    readonly stats: StatDefinitionService;
  }
}

export const statsFeature = {
  name: 'stats',
  services: { stats: (s) => new StatDefinitionService(s.db, s.changes, s.audit) },
  schemas: [StatDefinition, PublicStat],
  routes: (s, { key, admin }) => ({ v1: [publicStatRoutes(s.stats, key), statRoutes(s.stats, admin)] }),
  cli: [
    {
      name: 'stat update',
      usage:
        '--workspace W --stat KEY|ID [--public true|false] [--display-name D|default]\n' +
        '             [--unit ticks|cm|damage|count|default] [--sort-order asc|desc]',
      run: async (s, v) => {
        const d = await s.stats.update(CLI_ACTOR, await workspaceOf(s.workspaces, v), need(v, 'stat'), {
          public: bool(v.public),
          // `default`: back to the name and unit that follow from the key.
          display_name: v['display-name'] === 'default' ? null : v['display-name'],
          unit: v.unit === 'default' ? null : v.unit,
          sort_order: v['sort-order'],
        });
        return {
          json: { data: d },
          text: `Statistic ${d.key} (${d.display_name}, ${d.unit}): ${d.public ? 'public' : 'hidden'}, ${d.sort_order}`,
        };
      },
    },
    {
      name: 'stat set',
      usage: '--workspace W --stat KEY|ID --max-per-hour N|none',
      run: async (s, v) => {
        const limit = need(v, 'max-per-hour');
        const d = await s.stats.update(CLI_ACTOR, await workspaceOf(s.workspaces, v), need(v, 'stat'), {
          // `none` (or `null`, as the API writes it): no limit (client uploads of it are never held for their rate).
          max_per_hour: limit === 'none' || limit === 'null' ? null : num(limit),
        });
        return {
          json: { data: d },
          text: `Statistic ${d.key}: ${d.max_per_hour === null ? 'no hourly limit' : `at most +${d.max_per_hour} an hour`}`,
        };
      },
    },
    {
      name: 'stat list',
      usage: '--workspace W',
      run: async (s, v) => {
        const all = await s.stats.list(await workspaceOf(s.workspaces, v));
        return {
          json: { data: all },
          text:
            all
              .map((d) => `${d.key}  ${d.public ? 'public' : 'hidden'}  ${d.sort_order}  ${d.unit}  ${d.display_name}`)
              .join('\n') || 'No statistics.',
        };
      },
    },
  ],
} satisfies Feature;
