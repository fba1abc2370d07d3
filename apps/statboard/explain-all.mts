import pg from 'pg';
const c = new pg.Client({ connectionString: process.argv[2], options: process.env.JITOFF ? '-c jit=off' : undefined }); await c.connect();
const what = process.argv[3];
const { rankWindow, boardPage } = await import('/work/main/apps/statboard/src/modules/leaderboards/repo.ts');
const { activity } = await import('/work/main/apps/statboard/src/modules/ingest/repo.ts');
const ws = (await c.query('select id from workspaces limit 1')).rows[0].id;
const season = (await c.query('select id from seasons limit 1')).rows[0].id;
const stat = (await c.query("select d.id from stat_definitions d where exists (select 1 from player_stats s where s.stat_id = d.id) order by d.key offset $1 limit 1", [Number(process.argv[4] ?? 0)])).rows[0];
const explaining = { async query(sql: string, params: unknown[]) { const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params); console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n')); return []; }, exec: async () => {} };
if (what === 'rank') {
  const player = (await c.query('select p.uuid from players p join player_stats s on s.player_id=p.id and s.stat_id=$1 and s.season_id=$2 where p.public order by random() limit 1', [stat.id, season])).rows[0].uuid;
  await rankWindow(explaining as any, { workspaceId: ws, seasonId: season, statId: stat.id, order: 'desc', uuid: player, around: 5 });
} else if (what === 'page') {
  await boardPage(explaining as any, { workspaceId: ws, seasonId: season, statId: stat.id, order: 'desc', offset: 5000, limit: 100 });
} else {
  const to = new Date(); const from = new Date(Math.floor((to.getTime() - 23*3600000)/3600000)*3600000);
  await activity(explaining as any, ws, from, to, 'hour');
}
await c.end();
