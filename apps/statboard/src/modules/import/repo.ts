import { numberArray, textArray, timestampArray, uuidArray } from '#src/db/array-literal.ts';
import type { Queryable } from '#src/db/types.ts';
import { historyInsert, networkValueUpsert, serverHistoryInsert, serverValueUpsert } from '#src/modules/ingest/repo.ts';

/** One statistics file: a player's values as observed at the file's modification time. */
export interface ImportedFile {
  uuid: string;
  /** From usercache.json, else null: the player keeps its name, or a new one is called `unknown`. */
  username: string | null;
  observedAt: Date;
  values: { statId: string; value: number }[];
}

/**
 * Writes files' values (a server's) in ONE statement with the rules of ingest (`serverValueUpsert`,
 * `networkValueUpsert`, `historyInsert`, `serverHistoryInsert`): a value
 * observed later than the file is never overwritten, and a file imported twice changes nothing. A new player
 * is first seen at its file's time; an imported value's `updated_at` (the leaderboard's tie-break) is that time
 * too. Returns how many values were stored or changed.
 */
export async function importFiles(
  db: Queryable,
  workspaceId: string,
  seasonId: string,
  /** The server whose values these are. */
  serverId: string,
  files: ImportedFile[],
  history: boolean,
): Promise<number> {
  const item: number[] = [];
  const statIds: string[] = [];
  const values: number[] = [];
  files.forEach((f, i) => {
    for (const v of f.values) {
      item.push(i + 1);
      statIds.push(v.statId);
      values.push(v.value);
    }
  });
  const rows = await db.query<{ n: number }>(
    `WITH input AS (
       SELECT * FROM unnest($3::uuid[], $4::text[], $5::timestamptz[]) WITH ORDINALITY AS t(u, n, o, i)
     ), up AS (
       INSERT INTO players (workspace_id, uuid, username, username_observed_at, first_seen_at, last_seen_at)
       SELECT $1, u, coalesce(n, 'unknown'), CASE WHEN n IS NULL THEN '0001-01-01T00:00:00Z'::timestamptz ELSE o END,
         o, o
       FROM input ORDER BY u
       ON CONFLICT (workspace_id, uuid) DO UPDATE SET
         username = CASE WHEN excluded.username_observed_at >= players.username_observed_at
                         THEN excluded.username ELSE players.username END,
         username_observed_at = GREATEST(players.username_observed_at, excluded.username_observed_at),
         first_seen_at = LEAST(players.first_seen_at, excluded.first_seen_at)
       RETURNING id, uuid
     ), server_rows AS (
       ${serverValueUpsert(`SELECT $2::uuid AS season_id, $9::uuid AS server_id, v.d AS stat_id, up.id AS player_id,
           v.v AS value, input.o AS observed_at, input.o AS updated_at
         FROM unnest($6::int[], $7::uuid[], $8::float8[]) AS v(it, d, v)
         JOIN input ON input.i = v.it
         JOIN up ON up.uuid = input.u`)}
     ), stat_rows AS (
       ${networkValueUpsert(history)}
     ), history_rows AS (
       ${historyInsert(history)}
     ), server_history_rows AS (
       ${serverHistoryInsert(history)}
     )
     SELECT count(*)::int AS n FROM stat_rows`,
    [
      workspaceId,
      seasonId,
      uuidArray(files.map((f) => f.uuid)),
      textArray(files.map((f) => f.username)),
      timestampArray(files.map((f) => f.observedAt)),
      numberArray(item),
      uuidArray(statIds),
      numberArray(values),
      serverId,
    ],
  );
  return rows[0]?.n ?? 0;
}
