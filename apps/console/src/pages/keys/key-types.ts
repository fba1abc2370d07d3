import type { Schemas } from '../../api.ts';

export type ApiKey = Schemas['ApiKey'];
export type KeyType = ApiKey['type'];

export const SCOPES = ['ingest:write', 'players:read', 'stats:read', 'leaderboards:read', 'presence:read'] as const;
const READS = SCOPES.filter((s) => s !== 'ingest:write');

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
