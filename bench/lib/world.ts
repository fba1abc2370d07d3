/**
 * A Minecraft server's folder as the game leaves it, for benchmarks of what reads it: `server.properties`,
 * `usercache.json` and `world/stats/<uuid>.json` in the game's own format, with the game's real statistic names
 * (the service's catalog, from minecraft-data) and values of a plausible size.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gameCatalog } from '../../apps/statboard/src/modules/stats/game-catalog.ts';

/** The game's DataVersion of 1.21.1, written at the end of every file. */
const DATA_VERSION = 3955;
/** Things of each family one server's players have met: most mine the same few dozen blocks. */
const COMMON_THINGS = 60;
/** The counters every player has from the first session on. */
const ALWAYS = ['play_time', 'total_world_time', 'leave_game', 'time_since_death', 'time_since_rest', 'walk_one_cm'];

/** A small deterministic generator (mulberry32), so two runs write the same folder. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function shuffled<T>(xs: readonly T[], rnd: () => number): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Every statistic a player of this server may have, as [category, stat] of the file (`minecraft:mined`, …). */
function candidates(rnd: () => number): [string, string][] {
  const c = gameCatalog();
  const out: [string, string][] = Object.keys(c.custom)
    .filter((id) => !ALWAYS.includes(id))
    .map((id) => ['minecraft:custom', `minecraft:${id}`]);
  for (const [family, { of }] of Object.entries(c.families)) {
    for (const thing of shuffled(Object.keys(c[of]), rnd).slice(0, COMMON_THINGS)) {
      out.push([`minecraft:${family}`, `minecraft:${thing}`]);
    }
  }
  return out;
}

export interface WorldPlayer {
  uuid: string;
  name: string;
}

export interface ServerFolder {
  players: WorldPlayer[];
  /** Statistics in all files. */
  values: number;
  /** The stats file of a player. */
  statsFile(uuid: string): string;
  /** Writes a player's file again with its values grown, as an autosave after some play does. */
  play(uuid: string): Promise<void>;
}

/**
 * Writes a server folder to `dir` with `count` players, each with `min`–`max` statistics (100–200: a few hours'
 * play). No RCON: `enable-rcon=false`.
 */
export async function writeServerFolder(dir: string, count: number, min = 100, max = 200): Promise<ServerFolder> {
  const rnd = random(count);
  const pool = candidates(rnd);
  const stats = join(dir, 'world', 'stats');
  await mkdir(stats, { recursive: true });
  await writeFile(
    join(dir, 'server.properties'),
    '#Minecraft server properties\nlevel-name=world\nenable-rcon=false\nserver-port=25565\nmax-players=20\n',
  );
  const files = new Map<string, Record<string, Record<string, number>>>();
  const players: WorldPlayer[] = [];
  let values = 0;
  for (let i = 0; i < count; i++) {
    const uuid = crypto.randomUUID();
    players.push({ uuid, name: `Player${i}`.slice(0, 16) });
    const n = min + Math.floor(rnd() * (max - min + 1));
    const doc: Record<string, Record<string, number>> = { 'minecraft:custom': {} };
    const hours = 1 + rnd() ** 2 * 200;
    for (const id of ALWAYS) doc['minecraft:custom']![`minecraft:${id}`] = Math.floor(hours * 72_000 * (0.2 + rnd()));
    for (const [category, stat] of shuffled(pool, rnd).slice(0, n - ALWAYS.length)) {
      doc[category] ??= {};
      // Distances (…_one_cm) run to millions, most counters to a few hundred.
      const scale = stat.endsWith('_one_cm') ? 5_000_000 : stat.startsWith('minecraft:time_') ? 1_000_000 : 2_000;
      doc[category]![stat] = 1 + Math.floor((rnd() ** 3 * scale * Math.min(hours, 50)) / 10);
    }
    files.set(uuid, doc);
    values += n;
  }
  const statsFile = (uuid: string) => join(stats, `${uuid}.json`);
  const write = (uuid: string) =>
    writeFile(statsFile(uuid), JSON.stringify({ stats: files.get(uuid), DataVersion: DATA_VERSION }));
  for (let i = 0; i < players.length; i += 200) await Promise.all(players.slice(i, i + 200).map((p) => write(p.uuid)));
  const expiresOn = '2026-12-01 10:00:00 +0000';
  await writeFile(
    join(dir, 'usercache.json'),
    JSON.stringify(players.map((p) => ({ name: p.name, uuid: p.uuid, expiresOn }))),
  );
  return {
    players,
    values,
    statsFile,
    async play(uuid) {
      const custom = files.get(uuid)!['minecraft:custom']!;
      for (const id of ALWAYS) custom[`minecraft:${id}`]! += id === 'leave_game' ? 1 : 1_200;
      await write(uuid);
    },
  };
}
