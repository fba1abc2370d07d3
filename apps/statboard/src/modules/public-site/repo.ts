import type { Queryable } from '#src/db/types.ts';

export interface SiteRow {
  workspace_id: string;
  enabled: boolean;
  title: string;
  description: string;
  featured_stats: string[];
  embed_origins: string[];
  updated_at: Date;
}

export interface SiteWrite {
  enabled: boolean;
  title: string;
  description: string;
  featuredStats: string[];
  embedOrigins: string[];
}

const COLUMNS = 'workspace_id, enabled, title, description, featured_stats, embed_origins, updated_at';

/**
 * The workspace's settings, or null while nobody saved any (the site is off). `forUpdate`: locked until the
 * transaction ends, so that two changes of some of the fields in turn each keep the other's.
 */
export async function findSite(db: Queryable, workspaceId: string, forUpdate = false): Promise<SiteRow | null> {
  const rows = await db.query<SiteRow>(
    `SELECT ${COLUMNS} FROM public_sites WHERE workspace_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [workspaceId],
  );
  return rows[0] ?? null;
}

/** The workspace (id, name) with that slug and its site's settings (null columns: no settings yet). */
export async function findSiteBySlug(
  db: Queryable,
  slug: string,
): Promise<{ workspace_id: string; workspace_name: string; site: SiteRow | null } | null> {
  const rows = await db.query<{ id: string; name: string } & Partial<Record<keyof SiteRow, unknown>>>(
    `SELECT w.id, w.name, s.workspace_id, s.enabled, s.title, s.description, s.featured_stats, s.embed_origins,
       s.updated_at
     FROM workspaces w LEFT JOIN public_sites s ON s.workspace_id = w.id WHERE w.slug = $1`,
    [slug],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    workspace_id: r.id,
    workspace_name: r.name,
    site: r.workspace_id === null || r.workspace_id === undefined ? null : (r as unknown as SiteRow),
  };
}

export async function upsertSite(db: Queryable, workspaceId: string, s: SiteWrite): Promise<SiteRow> {
  const rows = await db.query<SiteRow>(
    `INSERT INTO public_sites (workspace_id, enabled, title, description, featured_stats, embed_origins)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (workspace_id) DO UPDATE SET enabled = EXCLUDED.enabled, title = EXCLUDED.title,
       description = EXCLUDED.description, featured_stats = EXCLUDED.featured_stats,
       embed_origins = EXCLUDED.embed_origins, updated_at = now()
     RETURNING ${COLUMNS}`,
    [workspaceId, s.enabled, s.title, s.description, s.featuredStats, s.embedOrigins],
  );
  return rows[0]!;
}
