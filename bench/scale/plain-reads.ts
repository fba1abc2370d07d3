/**
 * The reference of "a random player's values when the cache misses" (bench/scale/run.ts): bare node:http answering
 * `GET /api/v1/players/{uuid}/stats` with one `pg` query of that player's rows from a plain table keyed (season,
 * player, statistic), as JSON. No key check, no cache, no player row: what the database and `pg` cost alone.
 *
 *   DATABASE_URL, PLAIN_TABLE (built by the bench), SEASON_ID, POOL_SIZE (the service's DATABASE_POOL_SIZE)
 */
import { createServer } from 'node:http';
import pg from 'pg';

const table = process.env.PLAIN_TABLE ?? 'bench_plain_stats';
const seasonId = process.env.SEASON_ID ?? '';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const sql = `SELECT stat, value FROM ${table} WHERE season_id = $1 AND player = $2`;
const STATS_PATH = /^\/api\/v1\/players\/([0-9a-f-]{36})\/stats$/;

const server = createServer((req, res) => {
  const player = STATS_PATH.exec(req.url ?? '')?.[1];
  if (req.url === '/') {
    res.end('ok');
    return;
  }
  if (!player) {
    res.writeHead(404).end();
    return;
  }
  pool.query<{ stat: string; value: number }>(sql, [seasonId, player]).then(
    (r) => {
      const body = Buffer.from(JSON.stringify({ player, season: seasonId, stats: r.rows }));
      res.writeHead(r.rows.length > 0 ? 200 : 404, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
      });
      res.end(body);
    },
    () => res.writeHead(500).end(),
  );
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
