import type { Queryable } from '#src/db/types.ts';

export interface ServerRow {
  id: string;
  workspace_id: string;
  name: string;
  display_name: string | null;
  hostname: string;
  port: number;
  enabled: boolean;
  last_ingest_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, workspace_id, name, display_name, hostname, port, enabled, last_ingest_at, created_at, updated_at';

export interface ServerWrite {
  name: string;
  displayName: string | null;
  hostname: string;
  port: number;
  enabled: boolean;
}

export async function insertServer(db: Queryable, workspaceId: string, s: ServerWrite): Promise<ServerRow> {
  const rows = await db.query<ServerRow>(
    `INSERT INTO servers (workspace_id, name, display_name, hostname, port, enabled)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [workspaceId, s.name, s.displayName, s.hostname, s.port, s.enabled],
  );
  return rows[0]!;
}

export async function updateServer(
  db: Queryable,
  workspaceId: string,
  id: string,
  s: ServerWrite,
): Promise<ServerRow | null> {
  const rows = await db.query<ServerRow>(
    `UPDATE servers SET name = $3, display_name = $4, hostname = $5, port = $6, enabled = $7, updated_at = now()
     WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`,
    [id, workspaceId, s.name, s.displayName, s.hostname, s.port, s.enabled],
  );
  return rows[0] ?? null;
}

export async function findServer(db: Queryable, workspaceId: string, id: string): Promise<ServerRow | null> {
  const rows = await db.query<ServerRow>(`SELECT ${COLUMNS} FROM servers WHERE id = $1 AND workspace_id = $2`, [
    id,
    workspaceId,
  ]);
  return rows[0] ?? null;
}

export function listServers(db: Queryable, workspaceId: string): Promise<ServerRow[]> {
  return db.query<ServerRow>(`SELECT ${COLUMNS} FROM servers WHERE workspace_id = $1 ORDER BY name, hostname, port`, [
    workspaceId,
  ]);
}

export async function findEnabledServer(
  db: Queryable,
  workspaceId: string,
  hostname: string,
  port: number,
): Promise<ServerRow | null> {
  const rows = await db.query<ServerRow>(
    `SELECT ${COLUMNS} FROM servers WHERE workspace_id = $1 AND hostname = $2 AND port = $3 AND enabled`,
    [workspaceId, hostname, port],
  );
  return rows[0] ?? null;
}

/** Records when servers last had a batch accepted (the later time wins). */
export async function touchServers(db: Queryable, ids: string[], ats: Date[]): Promise<void> {
  await db.query(
    `UPDATE servers s SET last_ingest_at = GREATEST(s.last_ingest_at, t.at)
     FROM unnest($1::uuid[], $2::timestamptz[]) AS t(id, at) WHERE s.id = t.id`,
    [ids, ats],
  );
}
