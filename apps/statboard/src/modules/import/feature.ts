import { need, workspaceOf } from '#src/cli-args.ts';
import type { Feature } from '#src/feature.ts';
import { CLI_ACTOR } from '#src/modules/audit-log/service.ts';
import { progressBar } from './progress-bar.ts';
import { ImportService } from './service.ts';

declare module '#src/feature.ts' {
  interface Services {
    /** Imports a server's vanilla statistics files. */
    readonly imports: ImportService;
  }
}

export const importFeature = {
  name: 'import',
  services: {
    imports: (s) =>
      new ImportService(s.db, s.changes, s.audit, s.seasons, s.servers, s.config.historyEnabled, s.playerBlocks),
  },
  cli: [
    {
      name: 'import',
      usage:
        '--workspace W --season ID|SLUG --world DIR [--usercache FILE] [--server ID]\n' +
        "                                            import a server's vanilla statistics (DIR/stats/<uuid>.json,\n" +
        "                                            Minecraft 1.13+) as observed at each file's time; names from\n" +
        '                                            usercache.json (default: DIR/../usercache.json); run again: no change;\n' +
        "                                            verified values of --server (default: the workspace's only server)",
      run: async (s, v) => {
        const bar = progressBar(v.json === true);
        const r = await s.imports.importWorld(
          CLI_ACTOR,
          await workspaceOf(s.workspaces, v),
          { season: need(v, 'season'), world: need(v, 'world'), usercache: v.usercache, server: v.server },
          bar.update,
        );
        bar.done();
        const skipped = r.skipped.map((x) => `  skipped ${x.file}: ${x.reason}`).join('\n');
        return {
          json: { data: r },
          text:
            `Imported ${r.files} statistics files (${r.players} players): ${r.values} values stored or changed` +
            (r.skipped.length > 0 ? `; ${r.skipped.length} skipped:\n${skipped}` : ''),
        };
      },
    },
  ],
} satisfies Feature;
