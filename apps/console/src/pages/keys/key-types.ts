import type { Schemas } from '../../api.ts';

export type ApiKey = Schemas['ApiKey'];
export type KeyType = ApiKey['type'];

export const SCOPES = [
  'ingest:write',
  'ingest:server',
  'players:read',
  'stats:read',
  'leaderboards:read',
  'presence:read',
] as const;
const READS = SCOPES.filter((s) => !s.startsWith('ingest:'));

/** What a scope is for, where it needs saying. */
export const SCOPE_HINTS: Partial<Record<(typeof SCOPES)[number], string>> = {
  'ingest:server':
    'For statboard-agent on the game server: its uploads are verified. Integration keys restricted to exactly one server only.',
};

/** The kinds of keys, what each is for, and the scopes a new one starts with. */
export const TYPES: { type: KeyType; label: string; help: string; scopes: string[] }[] = [
  {
    type: 'client',
    label: 'Client (the mod)',
    help: 'Goes into the HM Stats mod on players’ clients: uploads statistics, reads nothing.',
    scopes: ['ingest:write'],
  },
  {
    type: 'website',
    label: 'Website',
    help: 'For your website: reads players, statistics, leaderboards and who is online.',
    scopes: [...READS],
  },
  {
    type: 'integration',
    label: 'Integration',
    help: 'For bots and tools: any scopes, including uploads.',
    scopes: [...READS],
  },
];

/** True when a key can upload now: the mod's key is made. */
export function canUpload(k: ApiKey): boolean {
  return k.status === 'active' && k.scopes.includes('ingest:write');
}
