/**
 * The public pages of two builds (see uncached-ab.ts: apps/statboard/.bench-data and dist) on a seeded database
 * (AB_DB), compared byte for byte with their headers: a change meant to keep the pages as they are, checked.
 */
import pg from 'pg';
import { startServer } from '../lib/child.ts';
import { ADMIN_URL } from '../lib/pg.ts';
import { serviceEnv } from '../lib/statboard.ts';

const name = process.env.AB_DB!;
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const c = new pg.Client({ connectionString: url.toString() });
await c.connect();
const uuids = (await c.query<{ uuid: string; username: string }>('SELECT uuid, username FROM players LIMIT 40')).rows;
await c.end();
const env = {
  ...serviceEnv({ url: url.toString() }),
  PUBLIC_PAGE_LIMIT_PER_MINUTE: '0',
  PLAYER_CACHE_MB: '0',
  PUBLIC_URL: 'https://stats.example',
};
process.env.BENCH_NODE_ARGS = '--max-semi-space-size=8';
const a = await startServer('apps/statboard/.bench-data/server.js', env, '/health/ready', 120_000);
process.env.BENCH_NODE_ARGS = '';
const b = await startServer('apps/statboard/dist/server.js', env, '/health/ready', 120_000);
const paths = [
  '/p/bench/',
  '/p/bench/seasons',
  '/p/bench/players',
  '/p/bench/players?q=Player1',
  '/p/bench/leaderboards/minecraft.mined:minecraft.stone',
  '/p/bench/embed/leaderboard/minecraft.mined:minecraft.stone?theme=dark',
  '/p/bench/nope',
  ...uuids.flatMap((u) => [
    `/p/bench/players/${u.uuid}`,
    `/p/bench/players/${u.username}?stat=minecraft.mined:minecraft.dirt`,
  ]),
];
let same = 0;
let diff = 0;
for (const p of paths) {
  const [ra, rb] = await Promise.all([fetch(a.url + p), fetch(b.url + p)]);
  const [ta, tb] = [await ra.text(), await rb.text()];
  const ha = [...ra.headers].filter(([k]) => !['date', 'x-request-id', 'keep-alive'].includes(k)).join('\n');
  const hb = [...rb.headers].filter(([k]) => !['date', 'x-request-id', 'keep-alive'].includes(k)).join('\n');
  if (ta === tb && ra.status === rb.status && ha === hb) same++;
  else {
    diff++;
    console.log('DIFF', p, ra.status, rb.status, ha === hb ? '' : `headers:\n${ha}\n---\n${hb}`);
    if (ta !== tb) {
      let i = 0;
      while (ta[i] === tb[i]) i++;
      console.log(' a:', JSON.stringify(ta.slice(i - 80, i + 120)));
      console.log(' b:', JSON.stringify(tb.slice(i - 80, i + 120)));
    }
  }
}
console.log({ same, diff, sample: (await (await fetch(`${b.url}/p/bench/players/${uuids[0]!.uuid}`)).text()).length });
await a.stop();
await b.stop();
