/**
 * The presence mark of a game session (`game_sessions.presence_mark`, migration 0026): a copy of `last_seen_at`
 * that moves forward only once it is PRESENCE_MARK_SECONDS behind, so that the indexes by time (presence,
 * activity) hold it instead of `last_seen_at` and most heartbeats change no indexed column (a HOT update: no new
 * index entries). Invariant: `presence_mark > last_seen_at - PRESENCE_MARK_SECONDS`. Every write of
 * `last_seen_at` goes with `markOnHeartbeat`, and every query of sessions by time with `seenSince`.
 */
export const PRESENCE_MARK_SECONDS = 300;

/** The SET clause of a heartbeat (`last_seen_at = now()`) for the session row `row` (a table name or alias). */
export function markOnHeartbeat(row: string): string {
  return `presence_mark = CASE WHEN ${row}.presence_mark > now() - interval '${PRESENCE_MARK_SECONDS} seconds'
    THEN ${row}.presence_mark ELSE now() END`;
}

/**
 * The condition "session `g` was last seen after `since`" (`op` `>` or `>=`; `since` an SQL expression): narrowed
 * by the mark, which the indexes hold, then exact.
 */
export function seenSince(g: string, op: '>' | '>=', since: string): string {
  return `${g}.presence_mark > (${since}) - interval '${PRESENCE_MARK_SECONDS} seconds' AND ${g}.last_seen_at ${op} (${since})`;
}
