import type { AuthKey } from '#src/access/auth-key.ts';
import type { Actor } from '#src/access/principal.ts';
import { READ_SCOPES } from '#src/access/scopes.ts';
import type { Cache } from '#src/cache/cache.ts';
import type { Changes } from '#src/cache/changes.ts';
import type { Db } from '#src/db/types.ts';
import type { Maybe } from '#src/lib/maybe.ts';
import { checkBody, Problems } from '#src/lib/validation.ts';
import type { AuditService } from '#src/modules/audit-log/service.ts';
import * as repo from './repo.ts';
import { PublicSiteRequest, type PublicSiteSettings } from './schemas.ts';

/** A workspace's public site as its pages need it: whose it is and its settings. */
export interface PublicSite {
  workspaceId: string;
  slug: string;
  /** The title to show: the admin's, else the workspace's name. */
  title: string;
  settings: PublicSiteSettings;
  /** Changes with every save (part of the pages' ETags). */
  version: string;
}

const OFF: PublicSiteSettings = Object.freeze({
  enabled: false,
  title: '',
  description: '',
  featured_stats: [],
  embed_origins: [],
}) as PublicSiteSettings;

function toSettings(row: repo.SiteRow | null): PublicSiteSettings {
  if (!row) return { ...OFF, featured_stats: [], embed_origins: [] };
  return {
    enabled: row.enabled,
    title: row.title,
    description: row.description,
    featured_stats: [...row.featured_stats],
    embed_origins: [...row.embed_origins],
  };
}

/**
 * An origin as browsers send it and CSP `frame-ancestors` matches it: `scheme://host[:port]` with http or https,
 * nothing after the host; null when `text` is not one.
 */
export function normalizeOrigin(text: string): string | null {
  const trimmed = text.trim().replace(/\/$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '' || url.origin.toLowerCase() !== trimmed.toLowerCase()) return null;
  // URL lets through hosts with `;`, `'`, `"`… that would end or break the CSP directive the origin goes into:
  // only CSP's host-source grammar (letters, digits, `-` and dots, `*.` first) or an IPv6 address in brackets.
  if (!CSP_HOST.test(url.hostname) && !/^\[[0-9a-f:.]+\]$/.test(url.hostname)) return null;
  return url.origin;
}

/** A host of a CSP host-source (CSP3 §2.3.1), without the lone `*`. */
const CSP_HOST = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*\.?$/;

/**
 * The key the public site reads with: what a website key with every read scope and no restriction reads — public
 * players and statistics only, through the same services (and caches) as the key routes. It never leaves the
 * process: no token, no key rate limit, no last use.
 */
export function siteKey(workspaceId: string): AuthKey {
  return {
    id: `site:${workspaceId}`,
    workspaceId,
    type: 'website',
    scopes: new Set(READ_SCOPES),
    players: [],
    servers: [],
    seasons: [],
  };
}

/** The public site's settings: read and changed by admins, read by the pages on every request (cached). */
export class PublicSiteService {
  /** Sites by workspace slug (null: no such workspace), dropped when a site's settings change. */
  private readonly bySlug: Cache<string, PublicSite | null> | null;

  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly audit: AuditService,
  ) {
    const bySlug = changes.cache<string, PublicSite | null>('public_site', 60_000, 10_000);
    this.bySlug = bySlug;
    changes.onChange((c) => {
      if (c === null) bySlug?.clear();
      else if (c.topic === 'site') bySlug?.deleteWhere((_slug, site) => site?.workspaceId === c.workspaceId);
    });
  }

  async get(workspaceId: string): Promise<PublicSiteSettings> {
    return toSettings(await repo.findSite(this.db, workspaceId));
  }

  /**
   * Changes the settings named in `input` (a field left out keeps its value). Statistic keys need not exist yet: a
   * key is featured before its first upload, and the pages leave out any key that is not a public statistic. Origins
   * must be `scheme://host[:port]`; both lists are de-duplicated in order.
   */
  async update(actor: Actor, workspaceId: string, input: unknown): Promise<PublicSiteSettings> {
    const body = checkBody(PublicSiteRequest, input, 'The public site settings are invalid.');
    const p = new Problems();
    const origins: string[] = [];
    for (const [i, raw] of (body.embed_origins ?? []).entries()) {
      const origin = normalizeOrigin(raw);
      if (origin === null) p.add(`embed_origins.${i}`, 'must be an origin such as https://club.example (no path)');
      else if (!origins.includes(origin)) origins.push(origin);
    }
    p.throwIfAny('The public site settings are invalid.');
    return this.db.transaction(async (tx) => {
      const before = toSettings(await repo.findSite(tx, workspaceId, true));
      const after = toSettings(
        await repo.upsertSite(tx, workspaceId, {
          enabled: body.enabled ?? before.enabled,
          title: body.title?.trim() ?? before.title,
          description: body.description?.trim() ?? before.description,
          featuredStats: body.featured_stats ? [...new Set(body.featured_stats)] : before.featured_stats,
          embedOrigins: body.embed_origins ? origins : before.embed_origins,
        }),
      );
      await this.changes.publish(tx, { topic: 'site', workspaceId });
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'PUBLIC_SITE_UPDATED',
        targetType: 'public_site',
        targetId: workspaceId,
        before,
        after,
      });
      return after;
    });
  }

  /** The site of the workspace with that slug (enabled or not), or null when there is no such workspace. */
  find(slug: string): Maybe<PublicSite | null> {
    if (slug.length === 0 || slug.length > 100) return null;
    if (!this.bySlug) return this.load(slug);
    return (
      this.bySlug.peek(slug) ??
      this.bySlug.get(
        slug,
        () => this.load(slug),
        (s) => s !== null,
      )
    );
  }

  private async load(slug: string): Promise<PublicSite | null> {
    const found = await repo.findSiteBySlug(this.db, slug);
    if (!found) return null;
    const settings = toSettings(found.site);
    return {
      workspaceId: found.workspace_id,
      slug,
      title: settings.title || found.workspace_name,
      settings,
      version: found.site ? String(new Date(found.site.updated_at).getTime()) : '0',
    };
  }
}
