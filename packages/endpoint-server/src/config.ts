/**
 * `config.yml` loading and validation (config keys). The result is a frozen
 * snapshot plus warnings that name the setting or entry; an invalid setting falls back to its default.
 * @packageDocumentation
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createDateFormatter, type DateFormatter, DEFAULT_DATE_FORMAT, isValidTimeZone } from './date-format.ts';
import { isValidEndpointName } from './paths.ts';
import { type CompiledObject, compileObject } from './template.ts';
import { yamlValueToText } from './values.ts';
import { parseYaml11 } from './yaml.ts';

/** ServerTap connection settings (`servertap: {url, key}`). */
export interface ServerTapSettings {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:4567`. */
  readonly url: string;
  /** The `key` header value, or null to send none. */
  readonly key: string | null;
}

/** One entry of `endpoints`. */
export interface EndpointDefinition {
  /** The endpoint name, as configured (case-sensitive). */
  readonly name: string;
  /** Whether the endpoint is about one player. */
  readonly requirePlayer: boolean;
  /** The compiled `object` section, or null when it is missing. */
  readonly object: CompiledObject | null;
}

/** A validated, frozen configuration snapshot. */
export interface EndpointConfig {
  /** Listen address. */
  readonly bindAddress: string;
  /** Listen port (0 lets the system choose). */
  readonly port: number;
  /** Request time limit in seconds (1 to 60). */
  readonly requestTimeoutSeconds: number;
  /** IANA time zone used for dates. */
  readonly timeZone: string;
  /** Java `DateTimeFormatter` pattern used for dates. */
  readonly dateFormat: string;
  /** Formatter for {@link dateFormat} in {@link timeZone}. */
  readonly dateFormatter: DateFormatter;
  /** Text of date placeholders for a player who never joined. */
  readonly neverSeenValue: string;
  /** Endpoints by name, or null when there is no `endpoints` section. */
  readonly endpoints: ReadonlyMap<string, EndpointDefinition> | null;
  /** Minecraft server folder (sidecar host). */
  readonly serverDir: string;
  /** World folder name, or null to use `level-name` from `server.properties` (sidecar host). */
  readonly world: string | null;
  /** ServerTap settings, or null when not configured. */
  readonly servertap: ServerTapSettings | null;
  /** Origins whose pages may read the answers from a browser (`*`: any); empty: no CORS headers. */
  readonly corsOrigins: readonly string[];
  /** Protection against slow clients and connection floods (applied at start, like the listen address). */
  readonly clients: ClientLimits;
}

/** Limits on what one client may hold of the server (config keys in brackets). */
export interface ClientLimits {
  /** A request's headers must arrive within this many seconds (`headers_timeout_seconds`). */
  readonly headersTimeoutSeconds: number;
  /** A whole request must arrive, and a connection idle while answering is closed, within (`client_timeout_seconds`). */
  readonly clientTimeoutSeconds: number;
  /** An idle keep-alive connection is closed after (`keep_alive_timeout_seconds`). */
  readonly keepAliveTimeoutSeconds: number;
  /** Open connections from one client address; 0: no limit (`max_connections_per_address`). */
  readonly maxConnectionsPerAddress: number;
}

/** A configuration together with the warnings its validation produced. */
export interface ConfigLoadResult {
  /** The snapshot. */
  readonly config: EndpointConfig;
  /** Human-readable warnings, each naming the setting or entry (`endpoints.stats.object: …`). */
  readonly warnings: readonly string[];
}

/** Default values of the settings. */
export const CONFIG_DEFAULTS = Object.freeze({
  bindAddress: '0.0.0.0',
  port: 4567,
  requestTimeoutSeconds: 5,
  timeZone: 'UTC',
  dateFormat: DEFAULT_DATE_FORMAT,
  neverSeenValue: 'never',
  headersTimeoutSeconds: 10,
  clientTimeoutSeconds: 30,
  keepAliveTimeoutSeconds: 5,
  maxConnectionsPerAddress: 256,
});

/** Options of {@link parseConfig}. */
export interface ParseConfigOptions {
  /** Folder against which `server_dir` resolves, and its default: the folder of `config.yml`. */
  readonly baseDir: string;
}

function isMap(value: unknown): value is Map<unknown, unknown> {
  return value instanceof Map;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (isMap(value)) return 'a map';
  if (Array.isArray(value)) return 'a list';
  return yamlValueToText(value);
}

class Collector {
  readonly warnings: string[] = [];
  constructor(private readonly root: Map<unknown, unknown>) {}

  get(key: string): unknown {
    for (const [k, v] of this.root) if (yamlValueToText(k) === key) return v;
    return undefined;
  }

  has(key: string): boolean {
    for (const k of this.root.keys()) if (yamlValueToText(k) === key) return true;
    return false;
  }

  warn(setting: string, problem: string): void {
    this.warnings.push(`${setting}: ${problem}`);
  }

  fallback<T>(setting: string, value: unknown, problem: string, def: T): T {
    this.warn(setting, `${describe(value)} ${problem}; using the default ${JSON.stringify(def)}`);
    return def;
  }
}

function integerOf(value: unknown): number | null {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return null;
}

function readString(c: Collector, key: string, def: string): string {
  const value = c.get(key);
  if (value === undefined || value === null) return def;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return yamlValueToText(value);
  return c.fallback(key, value, 'is not text', def);
}

function readBindAddress(c: Collector): string {
  const value = c.get('bind_address');
  if (value === undefined || value === null) return CONFIG_DEFAULTS.bindAddress;
  if (typeof value === 'string' && value.trim().length > 0 && !/\s/.test(value.trim())) return value.trim();
  return c.fallback('bind_address', value, 'is not an address', CONFIG_DEFAULTS.bindAddress);
}

function readPort(c: Collector): number {
  const value = c.get('port');
  if (value === undefined || value === null) return CONFIG_DEFAULTS.port;
  const port = integerOf(value);
  if (port !== null && port >= 0 && port <= 65535) return port;
  return c.fallback('port', value, 'is not a port (0 to 65535)', CONFIG_DEFAULTS.port);
}

function readTimeout(c: Collector): number {
  const value = c.get('request_timeout_seconds');
  if (value === undefined || value === null) return CONFIG_DEFAULTS.requestTimeoutSeconds;
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  if (Number.isFinite(n) && n >= 1 && n <= 60) return n;
  return c.fallback(
    'request_timeout_seconds',
    value,
    'is not a number from 1 to 60',
    CONFIG_DEFAULTS.requestTimeoutSeconds,
  );
}

function readInteger(c: Collector, key: string, def: number, min: number, max: number): number {
  const value = c.get(key);
  if (value === undefined || value === null) return def;
  const n = integerOf(value);
  if (n !== null && n >= min && n <= max) return n;
  return c.fallback(key, value, `is not a whole number from ${min} to ${max}`, def);
}

function readCorsOrigins(c: Collector): readonly string[] {
  const value = c.get('cors_origins');
  if (value === undefined || value === null) return Object.freeze([]);
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    const text = typeof item === 'string' ? item.trim() : '';
    if (text === '*') {
      out.push('*');
      continue;
    }
    let origin: string | null = null;
    try {
      const u = new URL(text);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.origin === text.replace(/\/$/, ''))
        origin = u.origin;
    } catch {
      origin = null;
    }
    if (origin === null)
      c.warn('cors_origins', `${describe(item)} is not an origin such as https://example.com (or "*"); ignored`);
    else out.push(origin);
  }
  return Object.freeze(out);
}

function readClientLimits(c: Collector): ClientLimits {
  const d = CONFIG_DEFAULTS;
  let headersTimeoutSeconds = readInteger(c, 'headers_timeout_seconds', d.headersTimeoutSeconds, 1, 600);
  const clientTimeoutSeconds = readInteger(c, 'client_timeout_seconds', d.clientTimeoutSeconds, 1, 3600);
  if (headersTimeoutSeconds > clientTimeoutSeconds) {
    headersTimeoutSeconds = c.fallback(
      'headers_timeout_seconds',
      headersTimeoutSeconds,
      `is more than client_timeout_seconds (${clientTimeoutSeconds})`,
      Math.min(d.headersTimeoutSeconds, clientTimeoutSeconds),
    );
  }
  return Object.freeze({
    headersTimeoutSeconds,
    clientTimeoutSeconds,
    keepAliveTimeoutSeconds: readInteger(c, 'keep_alive_timeout_seconds', d.keepAliveTimeoutSeconds, 1, 3600),
    maxConnectionsPerAddress: readInteger(c, 'max_connections_per_address', d.maxConnectionsPerAddress, 0, 1_000_000),
  });
}

function readTimeZone(c: Collector): string {
  const value = c.get('time_zone');
  if (value === undefined || value === null) return CONFIG_DEFAULTS.timeZone;
  if (typeof value === 'string' && isValidTimeZone(value)) return value;
  return c.fallback('time_zone', value, 'is not a known IANA time zone', CONFIG_DEFAULTS.timeZone);
}

function readDateFormatter(c: Collector, timeZone: string): DateFormatter {
  const value = c.get('date_format');
  if (value !== undefined && value !== null) {
    if (typeof value === 'string') {
      try {
        return createDateFormatter(value, timeZone);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        c.fallback('date_format', value, `is not a valid pattern (${reason})`, CONFIG_DEFAULTS.dateFormat);
      }
    } else {
      c.fallback('date_format', value, 'is not a pattern', CONFIG_DEFAULTS.dateFormat);
    }
  }
  return createDateFormatter(CONFIG_DEFAULTS.dateFormat, timeZone);
}

function readServerTap(c: Collector): ServerTapSettings | null {
  const value = c.get('servertap');
  if (value === undefined || value === null) return null;
  if (!isMap(value)) {
    c.warn('servertap', `${describe(value)} is not a map with url and key; ServerTap is disabled`);
    return null;
  }
  const sub = new Collector(value);
  const url = sub.get('url');
  let parsed: URL | null = null;
  if (typeof url === 'string') {
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    c.warn('servertap.url', `${describe(url)} is not an http(s) URL; ServerTap is disabled`);
    return null;
  }
  const rawKey = sub.get('key');
  let key: string | null = null;
  if (typeof rawKey === 'string' || typeof rawKey === 'bigint' || typeof rawKey === 'number') {
    key = yamlValueToText(rawKey);
  } else if (rawKey !== undefined && rawKey !== null) {
    c.warn('servertap.key', `${describe(rawKey)} is not text; no key is sent`);
  }
  return Object.freeze({ url: String(url).replace(/\/+$/, ''), key });
}

function readObject(c: Collector, name: string, value: unknown): CompiledObject | null {
  const setting = `endpoints.${name}.object`;
  if (value === undefined || value === null) {
    c.warn(setting, 'not found; the endpoint answers with an error');
    return null;
  }
  if (!isMap(value)) {
    c.warn(setting, `${describe(value)} is not a map of keys to templates; the endpoint answers with an error`);
    return null;
  }
  if (value.size === 0) c.warn(setting, 'is empty; the endpoint answers {}');
  const pairs: (readonly [string, string])[] = [];
  for (const [k, v] of value) {
    const key = yamlValueToText(k);
    if (isMap(v)) c.warn(`${setting}.${key}`, 'is a map, not a template; it is rendered as text');
    pairs.push([key, yamlValueToText(v)]);
  }
  return compileObject(pairs);
}

function readEndpoint(c: Collector, name: string, value: unknown): EndpointDefinition {
  if (!isMap(value)) {
    c.warn(`endpoints.${name}`, `${describe(value)} is not a map with require_player and object`);
    return Object.freeze({ name, requirePlayer: false, object: null });
  }
  const sub = new Collector(value);
  const rawRequire = sub.get('require_player');
  let requirePlayer = false;
  if (typeof rawRequire === 'boolean') requirePlayer = rawRequire;
  else if (rawRequire !== undefined && rawRequire !== null)
    requirePlayer = c.fallback(`endpoints.${name}.require_player`, rawRequire, 'is not true or false', false);
  return Object.freeze({ name, requirePlayer, object: readObject(c, name, sub.get('object')) });
}

function readEndpoints(c: Collector): ReadonlyMap<string, EndpointDefinition> | null {
  const value = c.get('endpoints');
  if (value === undefined || value === null) {
    c.warn('endpoints', 'not found; every /api request answers "endpoints not found."');
    return null;
  }
  if (!isMap(value)) {
    c.warn(
      'endpoints',
      `${describe(value)} is not a map of endpoints; every /api request answers "endpoints not found."`,
    );
    return null;
  }
  const endpoints = new Map<string, EndpointDefinition>();
  for (const [k, v] of value) {
    const name = yamlValueToText(k);
    if (!isValidEndpointName(name)) {
      c.warn(
        `endpoints.${name}`,
        'is not a valid endpoint name (letters, digits, _ and -, 1 to 64 characters); the entry is ignored',
      );
      continue;
    }
    endpoints.set(name, readEndpoint(c, name, v));
  }
  return endpoints;
}

/**
 * Validates a parsed YAML document (as returned by `parseYaml11`) into a snapshot. Never throws: every
 * problem becomes a warning and the setting's default.
 */
export function validateConfig(document: unknown, options: ParseConfigOptions): ConfigLoadResult {
  let root: Map<unknown, unknown> = new Map();
  const early: string[] = [];
  if (isMap(document)) root = document;
  else if (document !== null && document !== undefined)
    early.push(`(root): ${describe(document)} is not a map of settings; using the defaults`);
  const c = new Collector(root);
  c.warnings.push(...early);
  const bindAddress = readBindAddress(c);
  const port = readPort(c);
  const requestTimeoutSeconds = readTimeout(c);
  const timeZone = readTimeZone(c);
  const dateFormatter = readDateFormatter(c, timeZone);
  const neverSeenValue = readString(c, 'never_seen_value', CONFIG_DEFAULTS.neverSeenValue);
  const serverDirSetting = readString(c, 'server_dir', '');
  const worldSetting = readString(c, 'world', '');
  const config: EndpointConfig = Object.freeze({
    bindAddress,
    port,
    requestTimeoutSeconds,
    timeZone,
    dateFormat: dateFormatter.pattern,
    dateFormatter,
    neverSeenValue,
    endpoints: readEndpoints(c),
    serverDir: serverDirSetting ? path.resolve(options.baseDir, serverDirSetting) : path.resolve(options.baseDir),
    world: worldSetting || null,
    servertap: readServerTap(c),
    corsOrigins: readCorsOrigins(c),
    clients: readClientLimits(c),
  });
  return Object.freeze({ config, warnings: Object.freeze([...c.warnings]) });
}

/** Parses and validates `config.yml` text. Throws `YamlSyntaxError` when the text is not YAML. */
export function parseConfig(text: string, options: ParseConfigOptions): ConfigLoadResult {
  return validateConfig(parseYaml11(text), options);
}

/** Reads, parses and validates a `config.yml` file; `server_dir` defaults to its folder. */
export async function loadConfigFile(file: string): Promise<ConfigLoadResult> {
  const text = await readFile(file, 'utf8');
  return parseConfig(text, { baseDir: path.dirname(path.resolve(file)) });
}
