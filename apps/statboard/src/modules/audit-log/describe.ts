/**
 * What a person reads of an audit record: the target's name and one sentence ("Created API key Mod uploads",
 * "Changed the role of alice@example.com to Admin"). Both come from what the record kept of the target when the
 * change was made (its before/after), so a renamed or deleted target keeps the name it had; `currentName` (the
 * target's name now, read by the repo for users and seasons) fills in where the record kept none.
 */

/** The parts of a record the words are made of. */
export interface DescribedRecord {
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  actor_display_name: string | null;
  actor_user_id: string | null;
  /** `cli`, `system` (a season's schedule) or null for a signed-in user. */
  actor_label: string | null;
  /** The target's name today, when the repo could read it (users, seasons); else null. */
  current_name: string | null;
}

export interface AuditWords {
  /** The target by name ("Mod uploads", "alice@example.com", "Season 2"); null when nothing names it. */
  target_name: string | null;
  /** One sentence, without a final stop. */
  summary: string;
}

const ROLE_NAMES: Record<string, string> = {
  owner: 'Owner',
  admin: 'Admin',
  analyst: 'Analyst',
  readonly: 'Read-only',
};

/** What each kind of target is called in a sentence. */
const TARGET_NOUNS: Record<string, string> = {
  api_key: 'API key',
  server: 'server',
  season: 'season',
  player: 'player',
  stat_definition: 'statistic',
  user: 'user',
  webhook: 'webhook',
  workspace: 'workspace',
  bootstrap_token: 'bootstrap token',
  review_item: 'held values of',
  public_site: 'public site',
};

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** The name a snapshot of a target of `type` carries, by the fields that kind of target has. */
function nameIn(type: string, snapshot: Fields | null): string | null {
  if (!snapshot) return null;
  switch (type) {
    case 'server': {
      const address =
        text(snapshot.hostname) && snapshot.port !== undefined ? `${snapshot.hostname}:${snapshot.port}` : null;
      return text(snapshot.display_name) ?? text(snapshot.name) ?? address;
    }
    case 'player':
      // An erased player's records keep the game UUID only.
      return text(snapshot.username) ?? text(snapshot.uuid);
    case 'review_item':
      return text(fields(snapshot.player)?.username);
    case 'stat_definition':
      return text(snapshot.display_name) ?? text(snapshot.key);
    case 'user':
      return text(snapshot.email) ?? text(snapshot.display_name);
    case 'webhook':
      return text(snapshot.description) ?? text(snapshot.url);
    default:
      return text(snapshot.name);
  }
}

/** The target's name: from after, then before (and what they wrap), then its name today. */
export function targetName(r: DescribedRecord): string | null {
  const after = fields(r.after);
  const before = fields(r.before);
  // Snapshots that wrap the target: a rotation's `{revoked, replacement}`, an activation's `{season, …}`.
  const candidates = [after, before, fields(after?.replacement), fields(before?.season)];
  for (const c of candidates) {
    const name = nameIn(r.target_type, c);
    if (name !== null) return name;
  }
  if (r.target_type === 'user' && r.target_id !== null && r.target_id === r.actor_user_id) {
    return r.current_name ?? r.actor_display_name;
  }
  return r.current_name ?? (r.target_type === 'stat_definition' ? r.target_id : null);
}

function roleName(role: unknown): string | null {
  return typeof role === 'string' ? (ROLE_NAMES[role] ?? role) : null;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "API_KEY_CREATED" → "API key created": an action nobody gave words to yet still reads. */
function plainAction(action: string): string {
  const words = action.toLowerCase().split('_').join(' ').replace(/^api /, 'API ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The sentence of a record, with `name` (the target's name, or its kind when unnamed) in it. */
function sentence(r: DescribedRecord, name: string | null): string {
  const noun = TARGET_NOUNS[r.target_type] ?? r.target_type.replace(/_/g, ' ');
  const it = name === null ? `a ${noun}` : `${noun} ${name}`;
  const after = fields(r.after);
  const before = fields(r.before);
  switch (r.action) {
    case 'API_KEY_CREATED':
      return `Created ${it}`;
    case 'API_KEY_UPDATED':
      return `Changed ${it}`;
    case 'API_KEY_ROTATED':
      return `Rotated ${it}`;
    case 'API_KEY_REVOKED':
      return `Revoked ${it}`;
    case 'SERVER_CREATED':
      return `Registered ${it}`;
    case 'SERVER_UPDATED':
      if (before?.enabled === true && after?.enabled === false) return `Disabled ${it}`;
      if (before?.enabled === false && after?.enabled === true) return `Enabled ${it}`;
      return `Changed ${it}`;
    case 'SEASON_CREATED':
      return after?.active === true ? `Created and activated ${it}` : `Created ${it}`;
    case 'SEASON_ACTIVATED':
      return r.actor_label === 'system' ? `${capitalized(it)} started on schedule` : `Activated ${it}`;
    case 'SEASON_UPDATED':
      if (before?.scoring !== after?.scoring && typeof after?.scoring === 'string') {
        return `Changed ${it} to rank ${after.scoring === 'gains' ? 'gains since it began' : 'absolute values'}`;
      }
      return `Changed ${it}`;
    case 'SEASON_ENDED':
      return r.actor_label === 'system' ? `${capitalized(it)} ended on schedule` : `Ended ${it}`;
    case 'PLAYER_UPDATED':
      if (before?.public === true && after?.public === false) return `Hid ${it}`;
      if (before?.public === false && after?.public === true) return `Showed ${it}`;
      return `Changed ${it}`;
    case 'PLAYER_STATS_REMOVED': {
      const removed = typeof after?.values_removed === 'number' ? after.values_removed : null;
      const what = removed === null ? 'values' : `${removed.toLocaleString('en-US')} value${removed === 1 ? '' : 's'}`;
      const season = text(fields(before?.season)?.name);
      const stat = text(before?.stat);
      return `Removed ${what}${stat === null ? '' : ` of ${stat}`} of ${it}${season === null ? '' : ` in ${season}`}`;
    }
    case 'PLAYER_ERASED':
      return after?.blocked === true ? `Erased ${it} and blocked their uploads` : `Erased ${it}`;
    case 'PLAYER_UNBLOCKED':
      return `Unblocked ${it}: their uploads are accepted again`;
    case 'STAT_UPDATED':
      return `Changed ${it}`;
    case 'STATS_IMPORTED': {
      const values = typeof after?.values === 'number' ? after.values.toLocaleString('en-US') : null;
      return `Imported ${values === null ? 'statistics' : `${values} values`} into ${it}`;
    }
    case 'USER_ROLE_UPDATED': {
      const who = name ?? 'a user';
      const was = roleName(before?.role);
      const is = roleName(after?.role);
      if (is === null) return `Removed ${who} from the workspace`;
      if (was === null) return `Gave ${who} the role ${is}`;
      return `Changed the role of ${who} to ${is}`;
    }
    case 'WORKSPACE_BOOTSTRAPPED':
      return `Set up ${it}`;
    case 'WORKSPACE_OWNER_BOOTSTRAPPED':
      return `${name ?? 'A user'} became an owner with a bootstrap token`;
    case 'WORKSPACE_CREATED':
      return `Created ${it}`;
    case 'BOOTSTRAP_TOKEN_CREATED':
      return 'Created a bootstrap token';
    case 'WEBHOOK_CREATED':
      return `Created ${it}`;
    case 'WEBHOOK_UPDATED':
      return `Changed ${it}`;
    case 'WEBHOOK_DELETED':
      return `Deleted ${it}`;
    case 'WEBHOOK_SECRET_ROTATED':
      return `Rotated the signing secret of ${it}`;
    case 'REVIEW_APPROVED':
    case 'REVIEW_REJECTED': {
      const n = Array.isArray(after?.items) ? after.items.length : null;
      const what = n === null ? 'the held values' : n === 1 ? 'the 1 held value' : `the ${n} held values`;
      const whose = name === null ? 'a player' : name;
      return r.action === 'REVIEW_APPROVED'
        ? `Approved ${what} of ${whose}: stored`
        : `Rejected ${what} of ${whose}: discarded`;
    }
    case 'PUBLIC_SITE_UPDATED':
      if (before?.enabled !== true && after?.enabled === true) return 'Turned the public site on';
      if (before?.enabled === true && after?.enabled === false) return 'Turned the public site off';
      return 'Changed the public site';
    default:
      return name === null ? plainAction(r.action) : `${plainAction(r.action)}: ${name}`;
  }
}

/** The target's name and the sentence of an audit record. */
export function describeAudit(r: DescribedRecord): AuditWords {
  const name = targetName(r);
  return { target_name: name, summary: sentence(r, name) };
}
