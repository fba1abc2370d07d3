/**
 * The original service's OpenAPI v1 document ("Minecraft Stats API" 1.0.0), restated as data: every path,
 * method, status, parameter and schema field with its type, required-ness, nullability and enum. The spec calls
 * that document normative and ours must be a superset of it, so this is what the contract tests
 * hold the served document to. `$ref`s are resolved into the constants below; the original's `nullable: true`
 * (an OpenAPI 3.0 keyword) is kept as `nullable` here: ours must say `anyOf [X, null]` instead.
 */

export type RefType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

export interface RefSchema {
  type: RefType;
  nullable?: boolean;
  enum?: readonly unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  /** Object: its properties and which of them are required. */
  properties?: Readonly<Record<string, RefSchema>>;
  required?: readonly string[];
  /** Array items. */
  items?: RefSchema;
  /** Statistic values are numbers, where the original said integer ("our `value` fields are numbers"). */
  numberAllowed?: boolean;
}

export interface RefParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: RefSchema;
}

export interface RefResponse {
  /** The JSON body, or undefined when the original declares none (204, the health 503). */
  body?: RefSchema;
}

export interface RefOperation {
  /** The original's path; `aliases` are further paths of ours that must serve the same operation. */
  path: string;
  aliases?: readonly string[];
  method: 'get' | 'post' | 'put' | 'delete';
  operationId: string;
  security: 'none' | 'bearerAuth' | 'sessionCookie';
  requiredScopes?: readonly string[];
  parameters?: readonly RefParameter[];
  requestBody?: RefSchema;
  responses: Readonly<Record<number, RefResponse>>;
  /** Built by issue 3 (admin console): the checks start once the served document has the path. */
  admin?: boolean;
}

const str = (extra: Partial<RefSchema> = {}): RefSchema => ({ type: 'string', ...extra });
const uuid = (extra: Partial<RefSchema> = {}): RefSchema => str({ format: 'uuid', ...extra });
const dateTime = (extra: Partial<RefSchema> = {}): RefSchema => str({ format: 'date-time', ...extra });
const int = (extra: Partial<RefSchema> = {}): RefSchema => ({ type: 'integer', ...extra });
const bool = (): RefSchema => ({ type: 'boolean' });
const arr = (items: RefSchema, extra: Partial<RefSchema> = {}): RefSchema => ({ type: 'array', items, ...extra });
const obj = (properties: Record<string, RefSchema>, required: readonly string[] = []): RefSchema => ({
  type: 'object',
  properties,
  required,
});

export const HealthResponse = obj({ status: str({ enum: ['ok'] }) }, ['status']);

export const ErrorResponse = obj(
  { error: obj({ code: str(), message: str(), request_id: str() }, ['code', 'message', 'request_id']) },
  ['error'],
);

export const ClientInfo = obj(
  {
    mod_version: str({ maxLength: 64 }),
    minecraft_version: str({ maxLength: 64 }),
    fabric_loader_version: str({ maxLength: 64, nullable: true }),
  },
  ['mod_version', 'minecraft_version'],
);

export const IngestPlayer = obj({ uuid: uuid(), username: str({ minLength: 1, maxLength: 16 }) }, ['uuid', 'username']);

export const ServerReference = obj(
  { hostname: str({ minLength: 1, maxLength: 253 }), port: int({ minimum: 1, maximum: 65535 }) },
  ['hostname', 'port'],
);

export const StatObservation = obj(
  { key: str({ minLength: 1, maxLength: 255 }), value: int({ format: 'int64', minimum: 0, numberAllowed: true }) },
  ['key', 'value'],
);

export const ClientEvent = obj(
  {
    id: uuid(),
    type: str({ minLength: 1, maxLength: 64 }),
    occurred_at: dateTime(),
    payload: { type: 'object' },
  },
  ['id', 'type', 'occurred_at'],
);

export const IngestBatchRequest = obj(
  {
    protocol_version: int({ enum: [1] }),
    client: ClientInfo,
    player: IngestPlayer,
    server: ServerReference,
    season: str({ nullable: true }),
    session_id: uuid(),
    observed_at: dateTime(),
    stats: arr(StatObservation, { maxItems: 500 }),
    events: arr(ClientEvent, { maxItems: 100 }),
  },
  ['protocol_version', 'client', 'player', 'server', 'session_id', 'observed_at'],
);

export const IngestBatchResponse = obj(
  {
    accepted: { type: 'boolean', enum: [true] },
    request_id: str(),
    server_time: dateTime(),
    next_upload_after: int({ minimum: 1 }),
  },
  ['accepted', 'request_id', 'server_time'],
);

export const Player = obj({ id: uuid(), uuid: uuid(), username: str(), public: bool() }, ['id', 'uuid', 'username']);

export const Pagination = obj({ current_page: int(), per_page: int(), total: int() }, [
  'current_page',
  'per_page',
  'total',
]);

export const PaginatedPlayers = obj({ data: arr(Player), meta: Pagination }, ['data', 'meta']);

export const Season = obj(
  {
    id: uuid(),
    name: str(),
    slug: str(),
    active: bool(),
    started_at: dateTime({ nullable: true }),
    ended_at: dateTime({ nullable: true }),
  },
  ['id', 'name', 'slug', 'active'],
);

export const StatValue = obj(
  { key: str(), value: int({ format: 'int64', numberAllowed: true }), updated_at: dateTime() },
  ['key', 'value', 'updated_at'],
);

export const PlayerStatsResponse = obj({ player: Player, season: Season, stats: arr(StatValue) }, [
  'player',
  'season',
  'stats',
]);

export const LeaderboardEntry = obj(
  { rank: int(), player: Player, value: int({ format: 'int64', numberAllowed: true }) },
  ['rank', 'player', 'value'],
);

export const LeaderboardResponse = obj({ season: Season, stat: str(), entries: arr(LeaderboardEntry) }, [
  'season',
  'stat',
  'entries',
]);

export const PlayerPresence = obj({ player: Player, online: bool(), last_seen_at: dateTime() }, [
  'player',
  'online',
  'last_seen_at',
]);

const uuidList = arr(uuid());

export const ApiKey = obj(
  {
    id: uuid(),
    name: str(),
    type: str({ enum: ['client', 'website', 'integration'] }),
    prefix: str(),
    description: str({ nullable: true }),
    enabled: bool(),
    expires_at: dateTime({ nullable: true }),
    last_used_at: dateTime({ nullable: true }),
    created_at: dateTime(),
    revoked_at: dateTime({ nullable: true }),
    scopes: arr(str()),
    player_restrictions: uuidList,
    server_restrictions: uuidList,
    season_restrictions: uuidList,
  },
  ['id', 'name', 'prefix', 'enabled', 'scopes', 'created_at'],
);

const keyWriteFields = {
  name: str({ minLength: 1, maxLength: 100 }),
  description: str({ maxLength: 500, nullable: true }),
  scopes: arr(str()),
  player_restrictions: uuidList,
  server_restrictions: uuidList,
  season_restrictions: uuidList,
  expires_at: dateTime({ nullable: true }),
};

/**
 * The original requires `type` without defining it ; we define it as the key
 * type, so it is stated here with its values.
 */
export const CreateApiKeyRequest = obj(
  { ...keyWriteFields, type: str({ enum: ['client', 'website', 'integration'] }) },
  ['name', 'type', 'scopes'],
);

export const UpdateApiKeyRequest = obj(keyWriteFields, ['name', 'scopes']);

export const CreateApiKeyResponse = obj({ data: ApiKey, secret: str() }, ['data', 'secret']);

export const AdminMe = obj(
  {
    id: uuid(),
    display_name: str(),
    email: str({ format: 'email', nullable: true }),
    workspace_id: uuid({ nullable: true }),
    role: str({ nullable: true, enum: ['owner', 'admin', 'analyst', 'readonly'] }),
    needs_bootstrap: bool(),
  },
  ['id', 'display_name', 'workspace_id', 'role', 'needs_bootstrap'],
);

const error: RefResponse = { body: ErrorResponse };
const playerParam: RefParameter = { name: 'player', in: 'path', required: true, schema: uuid() };
const keyParam: RefParameter = { name: 'key', in: 'path', required: true, schema: uuid() };

export const REFERENCE_OPERATIONS: readonly RefOperation[] = [
  {
    path: '/health/live',
    aliases: ['/api/v1/health/live'],
    method: 'get',
    operationId: 'healthLive',
    security: 'none',
    responses: { 200: { body: HealthResponse } },
  },
  {
    path: '/health/ready',
    aliases: ['/api/v1/health/ready'],
    method: 'get',
    operationId: 'healthReady',
    security: 'none',
    responses: { 200: { body: HealthResponse }, 503: {} },
  },
  {
    path: '/api/v1/ingest/batch',
    method: 'post',
    operationId: 'ingestBatch',
    security: 'bearerAuth',
    requiredScopes: ['ingest:write'],
    parameters: [{ name: 'X-Request-ID', in: 'header', required: false, schema: str({ maxLength: 128 }) }],
    requestBody: IngestBatchRequest,
    responses: { 200: { body: IngestBatchResponse }, 400: error, 401: error, 403: error, 409: error, 429: error },
  },
  {
    path: '/api/v1/players',
    method: 'get',
    operationId: 'listPlayers',
    security: 'bearerAuth',
    requiredScopes: ['players:read'],
    parameters: [
      { name: 'season', in: 'query', required: false, schema: str() },
      { name: 'search', in: 'query', required: false, schema: str({ maxLength: 64 }) },
      { name: 'page', in: 'query', required: false, schema: int({ minimum: 1 }) },
      { name: 'per_page', in: 'query', required: false, schema: int({ minimum: 1, maximum: 100 }) },
    ],
    responses: { 200: { body: PaginatedPlayers }, 401: error, 403: error },
  },
  {
    path: '/api/v1/players/{player}',
    method: 'get',
    operationId: 'getPlayer',
    security: 'bearerAuth',
    requiredScopes: ['players:read'],
    parameters: [playerParam],
    responses: { 200: { body: Player }, 401: error, 403: error, 404: error },
  },
  {
    path: '/api/v1/players/{player}/stats',
    method: 'get',
    operationId: 'getPlayerStats',
    security: 'bearerAuth',
    requiredScopes: ['stats:read'],
    parameters: [playerParam, { name: 'season', in: 'query', required: true, schema: str() }],
    responses: { 200: { body: PlayerStatsResponse }, 401: error, 403: error, 404: error },
  },
  {
    path: '/api/v1/leaderboards',
    method: 'get',
    operationId: 'listLeaderboards',
    security: 'bearerAuth',
    requiredScopes: ['leaderboards:read'],
    parameters: [
      { name: 'season', in: 'query', required: true, schema: str() },
      { name: 'stat', in: 'query', required: true, schema: str() },
      { name: 'limit', in: 'query', required: false, schema: int({ minimum: 1, maximum: 100 }) },
    ],
    responses: { 200: { body: LeaderboardResponse }, 401: error, 403: error },
  },
  {
    path: '/api/v1/online',
    method: 'get',
    operationId: 'getOnlinePlayers',
    security: 'bearerAuth',
    requiredScopes: ['presence:read'],
    responses: { 200: { body: obj({ data: arr(PlayerPresence) }, ['data']) }, 401: error, 403: error },
  },
  {
    path: '/api/v1/seasons',
    method: 'get',
    operationId: 'listSeasons',
    security: 'bearerAuth',
    requiredScopes: ['stats:read'],
    responses: { 200: { body: obj({ data: arr(Season) }, ['data']) }, 401: error, 403: error },
  },
  {
    path: '/api/v1/admin/me',
    method: 'get',
    operationId: 'adminMe',
    security: 'sessionCookie',
    admin: true,
    responses: { 200: { body: AdminMe }, 401: error },
  },
  {
    path: '/api/v1/admin/api-keys',
    method: 'get',
    operationId: 'listApiKeys',
    security: 'sessionCookie',
    admin: true,
    responses: { 200: { body: obj({ data: arr(ApiKey) }, ['data']) } },
  },
  {
    path: '/api/v1/admin/api-keys',
    method: 'post',
    operationId: 'createApiKey',
    security: 'sessionCookie',
    admin: true,
    requestBody: CreateApiKeyRequest,
    responses: { 201: { body: CreateApiKeyResponse }, 401: error, 403: error },
  },
  {
    path: '/api/v1/admin/api-keys/{key}',
    method: 'put',
    operationId: 'updateApiKey',
    security: 'sessionCookie',
    admin: true,
    parameters: [keyParam],
    requestBody: UpdateApiKeyRequest,
    responses: { 200: { body: obj({ data: ApiKey }, ['data']) }, 401: error, 403: error, 404: error },
  },
  {
    path: '/api/v1/admin/api-keys/{key}/rotate',
    method: 'post',
    operationId: 'rotateApiKey',
    security: 'sessionCookie',
    admin: true,
    parameters: [keyParam],
    // The original says 200 here; we keep 200 `{data, secret}`.
    responses: { 200: { body: CreateApiKeyResponse }, 401: error, 403: error, 404: error },
  },
  {
    path: '/api/v1/admin/api-keys/{key}/revoke',
    method: 'post',
    operationId: 'revokeApiKey',
    security: 'sessionCookie',
    admin: true,
    parameters: [keyParam],
    responses: { 204: {}, 401: error, 403: error, 404: error },
  },
];
