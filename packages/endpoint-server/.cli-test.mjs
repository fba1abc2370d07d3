// src/cli.ts
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

// src/logger.ts
function createConsoleLogger() {
  const line = (level, message) => `${(/* @__PURE__ */ new Date()).toISOString()} [${level}] ${message}
`;
  return {
    info: (message) => process.stdout.write(line('INFO', message)),
    warn: (message) => process.stderr.write(line('WARN', message)),
    error: (message) => process.stderr.write(line('ERROR', message)),
  };
}
var silentLogger = Object.freeze({
  info: () => {},
  warn: () => {},
  error: () => {},
});

// src/runtime.ts
import { readFile as readFile3 } from 'node:fs/promises';
import path4 from 'node:path';

// src/config.ts
import path from 'node:path';

// src/date-format.ts
var DEFAULT_DATE_FORMAT = 'yyyy/MM/dd HH:mm:ss';
var MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
var DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
var DatePatternError = class extends Error {
  name = 'DatePatternError';
};
function pad(value, width) {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.abs(value));
  return sign + (digits.length >= width ? digits : '0'.repeat(width - digits.length) + digits);
}
function offsetText(minutes, withColon, zForZero) {
  if (minutes === 0 && zForZero) return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = pad(Math.floor(abs / 60), 2);
  const mm = pad(abs % 60, 2);
  return withColon ? `${sign}${hh}:${mm}` : `${sign}${hh}${mm}`;
}
function fieldPart(letter, count) {
  switch (letter) {
    case 'y':
    case 'u':
      if (count === 2) return (f) => pad(((f.year % 100) + 100) % 100, 2);
      return (f) => pad(f.year, count);
    case 'M':
    case 'L':
      if (count === 3) return (f) => (MONTHS[f.month - 1] ?? '').slice(0, 3);
      if (count === 4) return (f) => MONTHS[f.month - 1] ?? '';
      if (count === 5) return (f) => (MONTHS[f.month - 1] ?? '').slice(0, 1);
      return (f) => pad(f.month, count);
    case 'd':
      return (f) => pad(f.day, count);
    case 'D':
      return (f) => pad(f.dayOfYear, count);
    case 'H':
      return (f) => pad(f.hour, count);
    case 'k':
      return (f) => pad(f.hour === 0 ? 24 : f.hour, count);
    case 'h':
      return (f) => pad(f.hour % 12 === 0 ? 12 : f.hour % 12, count);
    case 'K':
      return (f) => pad(f.hour % 12, count);
    case 'm':
      return (f) => pad(f.minute, count);
    case 's':
      return (f) => pad(f.second, count);
    case 'S':
      return (f) => pad(f.millisecond, 3).concat('000000').slice(0, count);
    case 'n':
      return (f) => pad(f.millisecond * 1e6, count);
    case 'a':
      return (f) => (f.hour < 12 ? 'AM' : 'PM');
    case 'E':
      if (count === 4) return (f) => DAYS[f.weekday - 1] ?? '';
      if (count === 5) return (f) => (DAYS[f.weekday - 1] ?? '').slice(0, 1);
      return (f) => (DAYS[f.weekday - 1] ?? '').slice(0, 3);
    case 'e':
    case 'c':
      if (count === 3) return (f) => (DAYS[f.weekday - 1] ?? '').slice(0, 3);
      if (count === 4) return (f) => DAYS[f.weekday - 1] ?? '';
      return (f) => pad((f.weekday % 7) + 1, count);
    case 'Z':
      if (count === 4) return (f) => (f.offsetMinutes === 0 ? 'GMT' : `GMT${offsetText(f.offsetMinutes, true, false)}`);
      if (count === 5) return (f) => offsetText(f.offsetMinutes, true, true);
      return (f) => offsetText(f.offsetMinutes, false, false);
    case 'X':
    case 'x': {
      const z = letter === 'X';
      if (count === 1)
        return (f) => {
          if (z && f.offsetMinutes === 0) return 'Z';
          const text = offsetText(f.offsetMinutes, false, false);
          return f.offsetMinutes % 60 === 0 ? text.slice(0, 3) : text;
        };
      return (f) => offsetText(f.offsetMinutes, count % 2 === 1, z);
    }
    case 'V':
      return (f) => f.zoneId;
    case 'z':
      return (f) => f.zoneId;
    default:
      throw new DatePatternError(`unsupported pattern letter '${letter}'`);
  }
}
function compilePattern(pattern) {
  const parts = [];
  let literal = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i] ?? '';
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        literal += "'";
        i += 2;
        continue;
      }
      const end = findQuoteEnd(pattern, i + 1);
      literal += pattern.slice(i + 1, end.index).replaceAll("''", "'");
      i = end.index + 1;
      continue;
    }
    if (/[A-Za-z]/.test(ch)) {
      let count = 1;
      while (pattern[i + count] === ch) count++;
      if (literal) parts.push(literal);
      literal = '';
      parts.push(fieldPart(ch, count));
      i += count;
      continue;
    }
    if (ch === '{' || ch === '}' || ch === '#') throw new DatePatternError(`reserved character '${ch}'`);
    if (ch !== '[' && ch !== ']') literal += ch;
    i++;
  }
  if (literal) parts.push(literal);
  return parts;
}
function findQuoteEnd(pattern, from) {
  let j = from;
  while (j < pattern.length) {
    if (pattern[j] === "'") {
      if (pattern[j + 1] === "'") {
        j += 2;
        continue;
      }
      return { index: j };
    }
    j++;
  }
  throw new DatePatternError('unclosed quote');
}
var zoneFormatters = /* @__PURE__ */ new Map();
function zoneFormatter(timeZone) {
  let formatter = zoneFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    zoneFormatters.set(timeZone, formatter);
  }
  return formatter;
}
function isValidTimeZone(timeZone) {
  if (timeZone.length === 0) return false;
  try {
    zoneFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}
function zonedFields(date, timeZone) {
  const ms = date.getTime();
  const values2 = {};
  for (const p of zoneFormatter(timeZone).formatToParts(date)) values2[p.type] = p.value;
  let year = Number(values2.year);
  if (values2.era === 'BC' || values2.era === 'B') year = 1 - year;
  const month = Number(values2.month);
  const day = Number(values2.day);
  const hour = Number(values2.hour);
  const minute = Number(values2.minute);
  const second = Number(values2.second);
  const millisecond = ((ms % 1e3) + 1e3) % 1e3;
  const localAsUtc = Date.UTC(year, month - 1, day, hour, minute, second, millisecond);
  const utcDate = new Date(Date.UTC(year, month - 1, day));
  utcDate.setUTCFullYear(year);
  const jsDay = utcDate.getUTCDay();
  const startOfYear = new Date(Date.UTC(2e3, 0, 1));
  startOfYear.setUTCFullYear(year);
  const dayOfYear = Math.round((utcDate.getTime() - startOfYear.getTime()) / 864e5) + 1;
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    millisecond,
    weekday: jsDay === 0 ? 7 : jsDay,
    dayOfYear,
    offsetMinutes: Math.round((localAsUtc - ms) / 6e4),
    zoneId: timeZone,
  };
}
function createDateFormatter(pattern, timeZone) {
  const parts = compilePattern(pattern);
  zoneFormatter(timeZone);
  const memo = /* @__PURE__ */ new Map();
  return {
    pattern,
    timeZone,
    format(date) {
      const ms = date.getTime();
      const hit = memo.get(ms);
      if (hit !== void 0) return hit;
      const fields = zonedFields(date, timeZone);
      let out = '';
      for (const part of parts) out += typeof part === 'string' ? part : part(fields);
      if (memo.size >= 1024) memo.clear();
      memo.set(ms, out);
      return out;
    },
  };
}

// src/paths.ts
var ENDPOINT_NAME = /^[A-Za-z0-9_-]{1,64}$/;
var USERNAME_FORBIDDEN = /[\s\p{Cc}]/u;
var MAX_USERNAME_LENGTH = 32;
var FAVICON = Object.freeze({ kind: 'favicon' });
var NOT_FOUND = Object.freeze({ kind: 'not-found' });
var MALFORMED = Object.freeze({ kind: 'malformed' });
function rawPathOf(target) {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}
function isValidEndpointName(name) {
  return ENDPOINT_NAME.test(name);
}
function isValidUsername(name) {
  if (name.length === 0 || USERNAME_FORBIDDEN.test(name)) return false;
  let count = 0;
  for (const _ of name) {
    count++;
    if (count > MAX_USERNAME_LENGTH) return false;
  }
  return true;
}
function decodeSegment(segment) {
  if (segment.indexOf('%') === -1) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
function parsePath(target) {
  let path5 = rawPathOf(target);
  if (path5.startsWith('/')) path5 = path5.slice(1);
  if (path5.endsWith('/')) path5 = path5.slice(0, -1);
  const raw = path5.split('/');
  const segments = [];
  for (const part of raw) {
    const decoded = decodeSegment(part);
    if (decoded === null) return MALFORMED;
    segments.push(decoded);
  }
  if (segments.length === 1 && segments[0] === 'favicon.ico') return FAVICON;
  if (segments.length < 2 || segments[0] !== 'api') return NOT_FOUND;
  if (segments.length > 3) return MALFORMED;
  for (const segment of segments) if (segment.length === 0) return MALFORMED;
  const name = segments[1] ?? '';
  if (!isValidEndpointName(name)) return MALFORMED;
  const username = segments[2];
  if (username === void 0) return { kind: 'endpoint', name, username: null };
  if (!isValidUsername(username)) return MALFORMED;
  return { kind: 'endpoint', name, username };
}

// src/template.ts
var PLACEHOLDER = /\{(?:(username|last_login|last_seen)|(?:ext|papi):([^{}]+))\}/g;
var USERNAME = Object.freeze({ kind: 'username' });
var LAST_LOGIN = Object.freeze({ kind: 'last_login' });
var LAST_SEEN = Object.freeze({ kind: 'last_seen' });
function normalizeExternalName(name) {
  if (name.length >= 2 && name.startsWith('%') && name.endsWith('%')) return name;
  return `%${name}%`;
}
function compileTemplate(source) {
  const parts = [];
  let last = 0;
  for (const match of source.matchAll(PLACEHOLDER)) {
    const index = match.index;
    if (index > last) parts.push(source.slice(last, index));
    const local = match[1];
    if (local === 'username') parts.push(USERNAME);
    else if (local === 'last_login') parts.push(LAST_LOGIN);
    else if (local === 'last_seen') parts.push(LAST_SEEN);
    else parts.push(Object.freeze({ kind: 'ext', name: normalizeExternalName(match[2] ?? '') }));
    last = index + match[0].length;
  }
  if (last < source.length) parts.push(source.slice(last));
  return Object.freeze({ source, parts: Object.freeze(parts) });
}
function renderTemplate(template, values2) {
  let out = '';
  for (const part of template.parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    switch (part.kind) {
      case 'username':
        out += values2.username;
        break;
      case 'last_login':
        out += values2.lastLogin;
        break;
      case 'last_seen':
        out += values2.lastSeen;
        break;
      case 'ext':
        out += values2.external.get(part.name) ?? part.name;
        break;
    }
  }
  return out;
}
function compileObject(pairs) {
  const externals = [];
  let usesDates = false;
  const entries = pairs.map(([key, source]) => {
    const template = compileTemplate(source);
    for (const part of template.parts) {
      if (typeof part === 'string') continue;
      if (part.kind === 'ext' && !externals.includes(part.name)) externals.push(part.name);
      if (part.kind === 'last_login' || part.kind === 'last_seen') usesDates = true;
    }
    const keyJson = JSON.stringify(key);
    const isStatic = template.parts.every((p) => typeof p === 'string');
    return Object.freeze({
      key,
      keyJson,
      template,
      staticJson: isStatic ? `${keyJson}:${JSON.stringify(source)}` : null,
    });
  });
  return Object.freeze({ entries: Object.freeze(entries), externals: Object.freeze(externals), usesDates });
}
function renderObject(object, values2) {
  let out = '{';
  let first = true;
  for (const entry of object.entries) {
    if (!first) out += ',';
    first = false;
    out += entry.staticJson ?? `${entry.keyJson}:${JSON.stringify(renderTemplate(entry.template, values2))}`;
  }
  return `${out}}`;
}

// src/values.ts
function javaDoubleToString(value) {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${Number(exponent)}`;
}
function yamlValueToText(value) {
  if (value === null || value === void 0) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return javaDoubleToString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(yamlValueToText).join(', ')}]`;
  if (value instanceof Set) return `[${[...value].map(yamlValueToText).join(', ')}]`;
  if (value instanceof Map) {
    const items = [];
    for (const [k, v] of value) items.push(`${yamlValueToText(k)}=${yamlValueToText(v)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}

// src/yaml.ts
import { parseDocument } from 'yaml';

var YamlSyntaxError = class extends Error {
  name = 'YamlSyntaxError';
  /** Line of the first problem, 1-based. */
  line;
  /** Column of the first problem, 1-based. */
  column;
  constructor(message, line, column) {
    super(message);
    this.line = line;
    this.column = column;
  }
};
var BOOL_TAG = 'tag:yaml.org,2002:bool';
var TIMESTAMP_TAG = 'tag:yaml.org,2002:timestamp';
var TRUE_WORDS = /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
var FALSE_WORDS = /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/;
function adjustTags(tags) {
  const out = [];
  for (const tag of tags) {
    if (typeof tag !== 'object') {
      out.push(tag);
      continue;
    }
    if (tag.tag === TIMESTAMP_TAG) continue;
    if (tag.tag === BOOL_TAG && 'test' in tag && tag.test instanceof RegExp) {
      const scalar = tag;
      const isTrue = scalar.test?.test('true') === true;
      out.push({ ...scalar, test: isTrue ? TRUE_WORDS : FALSE_WORDS });
      continue;
    }
    out.push(tag);
  }
  return out;
}
function parseYaml11(text) {
  const doc = parseDocument(text, {
    version: '1.1',
    uniqueKeys: false,
    intAsBigInt: true,
    prettyErrors: true,
    customTags: adjustTags,
  });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const line = pos?.line ?? 1;
    const column = pos?.col ?? 1;
    const summary = first.message.split('\n')[0] ?? first.message;
    throw new YamlSyntaxError(summary, line, column);
  }
  return doc.toJS({ mapAsMap: true, maxAliasCount: 1e3 });
}

// src/config.ts
var CONFIG_DEFAULTS = Object.freeze({
  bindAddress: '0.0.0.0',
  port: 4567,
  requestTimeoutSeconds: 5,
  timeZone: 'UTC',
  dateFormat: DEFAULT_DATE_FORMAT,
  neverSeenValue: 'never',
});
function isMap(value) {
  return value instanceof Map;
}
function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (isMap(value)) return 'a map';
  if (Array.isArray(value)) return 'a list';
  return yamlValueToText(value);
}
var Collector = class {
  constructor(root) {
    this.root = root;
  }
  root;
  warnings = [];
  get(key) {
    for (const [k, v] of this.root) if (yamlValueToText(k) === key) return v;
    return void 0;
  }
  has(key) {
    for (const k of this.root.keys()) if (yamlValueToText(k) === key) return true;
    return false;
  }
  warn(setting, problem) {
    this.warnings.push(`${setting}: ${problem}`);
  }
  fallback(setting, value, problem, def) {
    this.warn(setting, `${describe(value)} ${problem}; using the default ${JSON.stringify(def)}`);
    return def;
  }
};
function integerOf(value) {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  return null;
}
function readString(c, key, def) {
  const value = c.get(key);
  if (value === void 0 || value === null) return def;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return yamlValueToText(value);
  return c.fallback(key, value, 'is not text', def);
}
function readBindAddress(c) {
  const value = c.get('bind_address');
  if (value === void 0 || value === null) return CONFIG_DEFAULTS.bindAddress;
  if (typeof value === 'string' && value.trim().length > 0 && !/\s/.test(value.trim())) return value.trim();
  return c.fallback('bind_address', value, 'is not an address', CONFIG_DEFAULTS.bindAddress);
}
function readPort(c) {
  const value = c.get('port');
  if (value === void 0 || value === null) return CONFIG_DEFAULTS.port;
  const port = integerOf(value);
  if (port !== null && port >= 0 && port <= 65535) return port;
  return c.fallback('port', value, 'is not a port (0 to 65535)', CONFIG_DEFAULTS.port);
}
function readTimeout(c) {
  const value = c.get('request_timeout_seconds');
  if (value === void 0 || value === null) return CONFIG_DEFAULTS.requestTimeoutSeconds;
  const n = typeof value === 'bigint' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  if (Number.isFinite(n) && n >= 1 && n <= 60) return n;
  return c.fallback(
    'request_timeout_seconds',
    value,
    'is not a number from 1 to 60',
    CONFIG_DEFAULTS.requestTimeoutSeconds,
  );
}
function readTimeZone(c) {
  const value = c.get('time_zone');
  if (value === void 0 || value === null) return CONFIG_DEFAULTS.timeZone;
  if (typeof value === 'string' && isValidTimeZone(value)) return value;
  return c.fallback('time_zone', value, 'is not a known IANA time zone', CONFIG_DEFAULTS.timeZone);
}
function readDateFormatter(c, timeZone) {
  const value = c.get('date_format');
  if (value !== void 0 && value !== null) {
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
function readServerTap(c) {
  const value = c.get('servertap');
  if (value === void 0 || value === null) return null;
  if (!isMap(value)) {
    c.warn('servertap', `${describe(value)} is not a map with url and key; ServerTap is disabled`);
    return null;
  }
  const sub = new Collector(value);
  const url = sub.get('url');
  let parsed = null;
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
  let key = null;
  if (typeof rawKey === 'string' || typeof rawKey === 'bigint' || typeof rawKey === 'number') {
    key = yamlValueToText(rawKey);
  } else if (rawKey !== void 0 && rawKey !== null) {
    c.warn('servertap.key', `${describe(rawKey)} is not text; no key is sent`);
  }
  return Object.freeze({ url: String(url).replace(/\/+$/, ''), key });
}
function readObject(c, name, value) {
  const setting = `endpoints.${name}.object`;
  if (value === void 0 || value === null) {
    c.warn(setting, 'not found; the endpoint answers with an error');
    return null;
  }
  if (!isMap(value)) {
    c.warn(setting, `${describe(value)} is not a map of keys to templates; the endpoint answers with an error`);
    return null;
  }
  if (value.size === 0) c.warn(setting, 'is empty; the endpoint answers {}');
  const pairs = [];
  for (const [k, v] of value) {
    const key = yamlValueToText(k);
    if (isMap(v)) c.warn(`${setting}.${key}`, 'is a map, not a template; it is rendered as text');
    pairs.push([key, yamlValueToText(v)]);
  }
  return compileObject(pairs);
}
function readEndpoint(c, name, value) {
  if (!isMap(value)) {
    c.warn(`endpoints.${name}`, `${describe(value)} is not a map with require_player and object`);
    return Object.freeze({ name, requirePlayer: false, object: null });
  }
  const sub = new Collector(value);
  const rawRequire = sub.get('require_player');
  let requirePlayer = false;
  if (typeof rawRequire === 'boolean') requirePlayer = rawRequire;
  else if (rawRequire !== void 0 && rawRequire !== null)
    requirePlayer = c.fallback(`endpoints.${name}.require_player`, rawRequire, 'is not true or false', false);
  return Object.freeze({ name, requirePlayer, object: readObject(c, name, sub.get('object')) });
}
function readEndpoints(c) {
  const value = c.get('endpoints');
  if (value === void 0 || value === null) {
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
  const endpoints = /* @__PURE__ */ new Map();
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
function validateConfig(document, options) {
  let root = /* @__PURE__ */ new Map();
  const early = [];
  if (isMap(document)) root = document;
  else if (document !== null && document !== void 0)
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
  const config = Object.freeze({
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
  });
  return Object.freeze({ config, warnings: Object.freeze([...c.warnings]) });
}
function parseConfig(text, options) {
  return validateConfig(parseYaml11(text), options);
}

// src/hosts/sidecar/sidecar-host.ts
import { readFile as readFile2 } from 'node:fs/promises';
import path3 from 'node:path';

// src/host.ts
var TaskTimeoutError = class extends Error {
  name = 'TaskTimeoutError';
  constructor() {
    super('the task took longer than the request timeout');
  }
};
var TaskAbortedError = class extends Error {
  name = 'TaskAbortedError';
  constructor() {
    super('the task was abandoned');
  }
};
function runWithTimeout(task, timeoutMs, signal) {
  const controller = new AbortController();
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const timer = setTimeout(() => {
      if (!finish()) return;
      const error = new TaskTimeoutError();
      controller.abort(error);
      reject(error);
    }, timeoutMs);
    const onAbort = () => {
      if (!finish()) return;
      const error = new TaskAbortedError();
      controller.abort(error);
      reject(error);
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    let pending;
    try {
      pending = task(controller.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        if (finish()) resolve(value);
      },
      (error) => {
        if (finish()) reject(error);
      },
    );
  });
}

// src/providers/servertap.ts
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';

// src/providers/shared-requests.ts
var SharedRequests = class {
  inflight = /* @__PURE__ */ new Map();
  /** Number of distinct requests in flight. */
  get size() {
    return this.inflight.size;
  }
  /** Joins the request for `key`, starting it with `start` when none is in flight. */
  run(key, start, signal) {
    if (signal.aborted) return Promise.reject(signal.reason);
    let shared = this.inflight.get(key);
    if (!shared) {
      const controller = new AbortController();
      const promise = start(controller.signal);
      const created = { promise, controller, waiters: 0 };
      const cleanup = () => {
        if (this.inflight.get(key) === created) this.inflight.delete(key);
      };
      promise.then(cleanup, cleanup);
      this.inflight.set(key, created);
      shared = created;
    }
    const current = shared;
    current.waiters++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        current.waiters--;
        if (current.waiters === 0) {
          if (this.inflight.get(key) === current) this.inflight.delete(key);
          current.controller.abort(signal.reason);
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      current.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
};

// src/providers/servertap.ts
var ServerTapError = class extends Error {
  name = 'ServerTapError';
};
var SELF_CONTAINED = /^%[^%]+%$/;
function createServerTapProvider(settings, options = {}) {
  const endpoint = new URL(`${settings.url}/v1/placeholders/replace`);
  const isHttps = endpoint.protocol === 'https:';
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 32,
    maxFreeSockets: options.maxSockets ?? 32,
  };
  const agent = isHttps ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const request = isHttps ? https.request : http.request;
  const maxBytes = options.maxResponseBytes ?? 1024 * 1024;
  const separator = ` <es-${randomBytes(12).toString('hex')}> `;
  const shared = new SharedRequests();
  const post = (message, uuid, signal) =>
    new Promise((resolve, reject) => {
      const form = new URLSearchParams();
      form.set('message', message);
      if (uuid !== null) form.set('uuid', uuid);
      const body = form.toString();
      const headers = {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
        accept: 'application/json',
      };
      if (settings.key !== null) headers.key = settings.key;
      const req = request(endpoint, { method: 'POST', agent, headers, signal }, (res) => {
        const chunks = [];
        let size = 0;
        res.on('data', (chunk) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(new ServerTapError('ServerTap answer too large'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 299) {
            reject(new ServerTapError(`ServerTap answered HTTP ${status}`));
            return;
          }
          let parsed;
          try {
            parsed = JSON.parse(text);
          } catch {
            reject(new ServerTapError('ServerTap answered something that is not JSON'));
            return;
          }
          if (typeof parsed !== 'string') {
            reject(new ServerTapError('ServerTap answered JSON that is not a string'));
            return;
          }
          resolve(parsed);
        });
      });
      req.on('error', (error) => reject(signal.aborted ? signal.reason : error));
      req.end(body);
    });
  const ask = (message, uuid, signal) =>
    shared.run(
      `${uuid ?? ''}
${message}`,
      (s) => post(message, uuid, s),
      signal,
    );
  const each = (placeholders, uuid, signal) => Promise.all(placeholders.map((p) => ask(p, uuid, signal)));
  return {
    async resolve(placeholders, uuid, signal) {
      if (placeholders.length === 0) return [];
      if (placeholders.length === 1) return [await ask(placeholders[0] ?? '', uuid, signal)];
      const batchable = [];
      const alone = [];
      for (const p of placeholders) (SELF_CONTAINED.test(p) ? batchable : alone).push(p);
      const answers = /* @__PURE__ */ new Map();
      const work = [];
      if (batchable.length > 1) {
        work.push(
          ask(batchable.join(separator), uuid, signal).then(async (joined) => {
            const parts = joined.split(separator);
            const values2 = parts.length === batchable.length ? parts : await each(batchable, uuid, signal);
            batchable.forEach((p, i) => {
              answers.set(p, values2[i] ?? p);
            });
          }),
        );
      } else {
        alone.push(...batchable);
      }
      if (alone.length > 0)
        work.push(
          each(alone, uuid, signal).then((values2) => {
            alone.forEach((p, i) => {
              answers.set(p, values2[i] ?? p);
            });
          }),
        );
      await Promise.all(work);
      return placeholders.map((p) => answers.get(p) ?? p);
    },
    close() {
      agent.destroy();
    },
  };
}

// src/hosts/sidecar/file-cache.ts
import { watch } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path2 from 'node:path';

var TRUST_MS = 1e3;
var MAX_ENTRIES = 1e4;
var FileCache = class {
  constructor(parse) {
    this.parse = parse;
  }
  parse;
  entries = /* @__PURE__ */ new Map();
  inflight = /* @__PURE__ */ new Map();
  watchers = /* @__PURE__ */ new Map();
  // Invalidation clock: a refresh that started before an invalidation of its file must not be trusted.
  clock = 0;
  invalidatedAt = /* @__PURE__ */ new Map();
  /** Watches a directory so its files are invalidated as they change. Missing directories fall back to stat. */
  watchDirectory(dir) {
    const resolved = path2.resolve(dir);
    if (this.watchers.has(resolved)) return;
    let watcher = null;
    try {
      watcher = watch(resolved, { persistent: false }, (_event, filename) => {
        if (filename) this.invalidate(path2.join(resolved, filename.toString()));
        else this.invalidateDirectory(resolved);
      });
      watcher.on('error', () => {
        this.watchers.set(resolved, null);
        this.invalidateDirectory(resolved);
        watcher?.close();
      });
    } catch {
      watcher = null;
    }
    this.watchers.set(resolved, watcher);
  }
  /** Forgets the trust in one file, so the next read checks it. */
  invalidate(file) {
    this.clock++;
    if (this.invalidatedAt.size >= MAX_ENTRIES) this.invalidatedAt.clear();
    this.invalidatedAt.set(file, this.clock);
    const entry = this.entries.get(file);
    if (entry) entry.trusted = false;
  }
  invalidateDirectory(dir) {
    this.clock++;
    this.invalidatedAt.set(dir, this.clock);
    for (const [file, entry] of this.entries) if (path2.dirname(file) === dir) entry.trusted = false;
  }
  changedSince(file, tick) {
    return (this.invalidatedAt.get(file) ?? 0) > tick || (this.invalidatedAt.get(path2.dirname(file)) ?? 0) > tick;
  }
  isWatched(file) {
    return this.watchers.get(path2.dirname(file)) != null;
  }
  /** Reads `file` (absolute), from the cache when it has not changed; null when it does not exist. */
  get(file) {
    const entry = this.entries.get(file);
    if (entry?.trusted && Date.now() - entry.checkedAt < TRUST_MS) return Promise.resolve(entry.result);
    const running = this.inflight.get(file);
    if (running) return running;
    const promise = this.refresh(file, entry);
    this.inflight.set(file, promise);
    const done = () => {
      this.inflight.delete(file);
    };
    promise.then(done, done);
    return promise;
  }
  async refresh(file, entry) {
    const tick = this.clock;
    const watched = this.isWatched(file);
    const checkedAt = Date.now();
    let stamp = 'missing';
    let mtime = /* @__PURE__ */ new Date(0);
    try {
      const st = await stat(file);
      if (!st.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
      stamp = `${st.mtimeMs}:${st.size}`;
      mtime = st.mtime;
    } catch (error) {
      if (error.code !== 'ENOENT' && error.code !== 'ENOTDIR') throw error;
    }
    const trusted = watched && !this.changedSince(file, tick);
    if (entry && entry.stamp === stamp) {
      entry.checkedAt = checkedAt;
      entry.trusted = trusted;
      return entry.result;
    }
    let result = null;
    if (stamp !== 'missing') {
      const data = await readFile(file);
      result = { value: await this.parse(data, file), mtime };
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(file, { stamp, result, checkedAt, trusted: watched && !this.changedSince(file, tick) });
    return result;
  }
  /** Stops all watchers. */
  close() {
    for (const watcher of this.watchers.values()) watcher?.close();
    this.watchers.clear();
  }
};

// src/hosts/sidecar/offline-uuid.ts
import { createHash } from 'node:crypto';

function formatUuid(bytes) {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
function offlinePlayerUuid(name) {
  const bytes = createHash('md5').update(`OfflinePlayer:${name}`, 'utf8').digest();
  bytes[6] = ((bytes[6] ?? 0) & 15) | 48;
  bytes[8] = ((bytes[8] ?? 0) & 63) | 128;
  return formatUuid(bytes);
}

// src/hosts/sidecar/player-data.ts
import nbt from 'prismarine-nbt';

function child(tag, name) {
  if (tag?.type !== 'compound') return void 0;
  return tag.value[name];
}
function epochMillis(tag) {
  if (!tag) return null;
  let value = null;
  if (tag.type === 'long') {
    const [hi, lo] = tag.value;
    value = Number((BigInt(hi) << 32n) | BigInt(lo >>> 0));
  } else if (tag.type === 'int' || tag.type === 'short' || tag.type === 'double' || tag.type === 'float') {
    value = tag.value;
  }
  return value !== null && Number.isFinite(value) && value > 0 ? value : null;
}
async function parsePlayerFile(data) {
  const { parsed } = await nbt.parse(data, 'big');
  const paper = child(parsed, 'Paper');
  const bukkit = child(parsed, 'bukkit');
  return {
    paperLastLogin: epochMillis(child(paper, 'LastLogin')),
    paperLastSeen: epochMillis(child(paper, 'LastSeen')),
    bukkitLastPlayed: epochMillis(child(bukkit, 'lastPlayed')),
  };
}

// src/hosts/sidecar/server-properties.ts
function unescapeProperty(text) {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, esc) => {
    if (esc.length === 5) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    if (esc === 't') return '	';
    if (esc === 'n') return '\n';
    if (esc === 'r') return '\r';
    if (esc === 'f') return '\f';
    return esc;
  });
}
function parseProperties(text) {
  const result = /* @__PURE__ */ new Map();
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = (lines[i] ?? '').replace(/^[ \t\f]+/, '');
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    while (/(?:^|[^\\])(?:\\\\)*\\$/.test(line) && i + 1 < lines.length) {
      line = line.slice(0, -1) + (lines[++i] ?? '').replace(/^[ \t\f]+/, '');
    }
    const sep = /^((?:\\.|[^=:\s\\])*)[ \t\f]*(?:[=:][ \t\f]*|(?=[^ \t\f])|$)/.exec(line);
    const rawKey = sep?.[1] ?? line;
    const rest = line.slice(sep?.[0].length ?? line.length);
    result.set(unescapeProperty(rawKey), unescapeProperty(rest));
  }
  return result;
}

// src/hosts/sidecar/usercache.ts
var EXPIRES_ON = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;
var UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
function lastLoginFromExpiresOn(expiresOn) {
  const m = EXPIRES_ON.exec(expiresOn.trim());
  if (!m) return null;
  const [, ys, mos, ds, hs, mins, ss, sign, ohs, oms] = m;
  let year = Number(ys);
  let month = Number(mos) - 1;
  if (month < 1) {
    month += 12;
    year -= 1;
  }
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(Number(ds), daysInMonth);
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(ohs) * 60 + Number(oms));
  const local = Date.UTC(year, month - 1, day, Number(hs), Number(mins), Number(ss));
  const ms = local - offsetMinutes * 6e4;
  return Number.isFinite(ms) ? new Date(ms) : null;
}
function parseUsercache(text) {
  const data = JSON.parse(text);
  const map = /* @__PURE__ */ new Map();
  if (!Array.isArray(data)) return map;
  for (const item of data) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, uuid, expiresOn } = item;
    if (typeof name !== 'string' || typeof uuid !== 'string' || !UUID.test(uuid)) continue;
    const entry = {
      name,
      uuid: uuid.toLowerCase(),
      lastLogin: typeof expiresOn === 'string' ? lastLoginFromExpiresOn(expiresOn) : null,
    };
    const key = name.toLowerCase();
    const existing = map.get(key);
    if (existing && (existing.lastLogin?.getTime() ?? 0) > (entry.lastLogin?.getTime() ?? 0)) continue;
    map.set(key, entry);
  }
  return map;
}

// src/hosts/sidecar/sidecar-host.ts
async function readLevelName(serverDir) {
  try {
    const props = parseProperties(await readFile2(path3.join(serverDir, 'server.properties'), 'utf8'));
    const name = props.get('level-name')?.trim();
    return name ? name : 'world';
  } catch {
    return 'world';
  }
}
async function createSidecarHost(options) {
  const serverDir = path3.resolve(options.serverDir);
  const world = options.world ?? (await readLevelName(serverDir));
  const worldDir = path3.resolve(serverDir, world);
  const playerDirectories = [path3.join(worldDir, 'players', 'data'), path3.join(worldDir, 'playerdata')];
  const usercacheFile = path3.join(serverDir, 'usercache.json');
  const files = new FileCache(async (data, file) =>
    file === usercacheFile
      ? { kind: 'usercache', cache: parseUsercache(data.toString('utf8')) }
      : { kind: 'player', times: await parsePlayerFile(data) },
  );
  files.watchDirectory(serverDir);
  for (const dir of playerDirectories) files.watchDirectory(dir);
  const provider = options.provider ?? (options.servertap ? createServerTapProvider(options.servertap) : null);
  let active = true;
  const usercacheEntry = async (name) => {
    let cached;
    try {
      cached = await files.get(usercacheFile);
    } catch {
      return null;
    }
    if (cached?.value.kind !== 'usercache') return null;
    return cached.value.cache.get(name.toLowerCase()) ?? null;
  };
  const uuidOf = async (name) => {
    const entry = await usercacheEntry(name);
    return { uuid: entry?.uuid ?? offlinePlayerUuid(name), entry };
  };
  return {
    world,
    playerDirectories,
    isActive: () => active,
    deactivate() {
      active = false;
    },
    async findPlayer(name, signal) {
      const { uuid, entry } = await uuidOf(name);
      for (const dir of playerDirectories) {
        signal.throwIfAborted();
        const cached = await files.get(path3.join(dir, `${uuid}.dat`));
        if (cached?.value.kind !== 'player') continue;
        const { times } = cached.value;
        const lastLogin =
          times.paperLastLogin !== null ? new Date(times.paperLastLogin) : (entry?.lastLogin ?? cached.mtime);
        const lastSeenMs = times.paperLastSeen ?? times.bukkitLastPlayed;
        const lastSeen = lastSeenMs !== null ? new Date(lastSeenMs) : cached.mtime;
        return { lastLogin, lastSeen };
      }
      return null;
    },
    async resolveExternal(placeholders, player, signal) {
      if (!provider) return placeholders;
      const uuid = player === null ? null : (await uuidOf(player)).uuid;
      return provider.resolve(placeholders, uuid, signal);
    },
    runTask: runWithTimeout,
    close() {
      active = false;
      files.close();
      provider?.close();
    },
  };
}

// src/server.ts
import http2 from 'node:http';

// src/messages.ts
var AVAILABLE_ROUTES = '/api/{endpoint}, /api/{endpoint}/{username}, /favicon.ico';
var messages = {
  noEndpointsSection: () => 'endpoints not found.',
  endpointNotFound: (name) => `Endpoint '${name}' not found.`,
  objectNotFound: (name) => `endpoints.${name}.object not found.`,
  malformedPath: (rawPath) => `Malformed request path '${rawPath}'. Available routes: ${AVAILABLE_ROUTES}`,
  playerRequired: (name) => `Endpoint '${name}' requires a player name: /api/${name}/{username}`,
  notFound: () => `Not found. Available routes: ${AVAILABLE_ROUTES}`,
  methodNotAllowed: (method) => `Method ${method} is not supported, use GET.`,
  failed: () => 'Failed to collect the requested data.',
  timedOut: () => 'Timed out while collecting the requested data.',
  shuttingDown: () => 'The plugin is shutting down.',
};

// src/render.ts
var NO_EXTERNAL = /* @__PURE__ */ new Map();
function needsHost(object, username) {
  return object.externals.length > 0 || (object.usesDates && username !== null);
}
function dateText(config, date) {
  return date ? config.dateFormatter.format(date) : config.neverSeenValue;
}
function values(config, username, player, external) {
  return {
    username: username ?? '',
    lastLogin: dateText(config, player?.lastLogin),
    lastSeen: dateText(config, player?.lastSeen),
    external,
  };
}
function renderLocal(config, object, username) {
  return renderObject(object, values(config, username, null, NO_EXTERNAL));
}
async function renderWithHost(config, host, object, username, signal) {
  const playerPromise =
    object.usesDates && username !== null ? host.findPlayer(username, signal) : Promise.resolve(null);
  const externalPromise =
    object.externals.length > 0 ? host.resolveExternal(object.externals, username, signal) : Promise.resolve([]);
  const [player, answers] = await Promise.all([playerPromise, externalPromise]);
  let external = NO_EXTERNAL;
  if (object.externals.length > 0) {
    if (answers.length !== object.externals.length)
      throw new Error('the placeholder provider answered the wrong count');
    const map = /* @__PURE__ */ new Map();
    object.externals.forEach((name, i) => {
      map.set(name, answers[i] ?? name);
    });
    external = map;
  }
  return renderObject(object, values(config, username, player, external));
}

// src/server.ts
var CONTENT_TYPE = 'application/json; charset=utf-8';
var ALLOW = 'GET, HEAD';
var errorBody = (message) => JSON.stringify({ error: message });
var NOT_FOUND_BODY = errorBody(messages.notFound());
var NO_ENDPOINTS_BODY = errorBody(messages.noEndpointsSection());
var FAILED_BODY = errorBody(messages.failed());
var TIMED_OUT_BODY = errorBody(messages.timedOut());
var SHUTTING_DOWN_BODY = errorBody(messages.shuttingDown());
function send(res, status, body, head, allow) {
  const headers = {
    'content-type': CONTENT_TYPE,
    'content-length': Buffer.byteLength(body),
  };
  if (allow) headers.allow = ALLOW;
  res.writeHead(status, headers);
  if (head) res.end();
  else res.end(body);
}
function createEndpointServer(options) {
  const logger = options.logger ?? silentLogger;
  let shuttingDown = false;
  let pending = 0;
  let onIdle = null;
  const settle = () => {
    pending--;
    if (pending === 0 && onIdle) onIdle();
  };
  const handle = (req, res) => {
    const method = req.method ?? 'GET';
    const head = method === 'HEAD';
    const snapshot = options.getSnapshot();
    if (shuttingDown || !snapshot.host.isActive()) {
      req.resume();
      send(res, 503, SHUTTING_DOWN_BODY, head);
      return;
    }
    if (method !== 'GET' && !head) {
      req.resume();
      send(res, 405, errorBody(messages.methodNotAllowed(method)), false, true);
      return;
    }
    const target = req.url ?? '/';
    const parsed = parsePath(target);
    switch (parsed.kind) {
      case 'favicon':
        send(res, 200, '', head);
        return;
      case 'not-found':
        send(res, 404, NOT_FOUND_BODY, head);
        return;
      case 'malformed':
        send(res, 400, errorBody(messages.malformedPath(rawPathOf(target))), head);
        return;
      case 'endpoint':
        break;
    }
    const { config, host } = snapshot;
    if (config.endpoints === null) {
      send(res, 200, NO_ENDPOINTS_BODY, head);
      return;
    }
    const endpoint = config.endpoints.get(parsed.name);
    if (!endpoint) {
      send(res, 200, errorBody(messages.endpointNotFound(parsed.name)), head);
      return;
    }
    const object = endpoint.object;
    if (!object) {
      send(res, 200, errorBody(messages.objectNotFound(endpoint.name)), head);
      return;
    }
    if (endpoint.requirePlayer && parsed.username === null) {
      send(res, 400, errorBody(messages.playerRequired(endpoint.name)), head);
      return;
    }
    const username = parsed.username;
    if (!needsHost(object, username)) {
      send(res, 200, renderLocal(config, object, username), head);
      return;
    }
    pending++;
    const gone = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) gone.abort();
    };
    res.once('close', onClose);
    host
      .runTask(
        (signal) => renderWithHost(config, host, object, username, signal),
        config.requestTimeoutSeconds * 1e3,
        gone.signal,
      )
      .then(
        (body) => {
          if (!res.headersSent && !res.destroyed) send(res, 200, body, head);
        },
        (error) => {
          if (error instanceof TaskAbortedError) return;
          if (error instanceof TaskTimeoutError) {
            logger.warn(`Endpoint '${endpoint.name}': timed out after ${config.requestTimeoutSeconds} s`);
            if (!res.headersSent && !res.destroyed) send(res, 503, TIMED_OUT_BODY, head);
            return;
          }
          const reason = error instanceof Error ? error.message : String(error);
          logger.warn(`Endpoint '${endpoint.name}': failed to collect the requested data: ${reason}`);
          if (!res.headersSent && !res.destroyed) send(res, 500, FAILED_BODY, head);
        },
      )
      .finally(() => {
        res.off('close', onClose);
        settle();
      });
  };
  const server = http2.createServer({ keepAliveTimeout: 5e3 }, handle);
  return {
    server,
    listen(port, hostname) {
      return new Promise((resolve, reject) => {
        const onError = (error) => reject(error);
        server.once('error', onError);
        server.listen(port, hostname, () => {
          server.off('error', onError);
          resolve(server.address());
        });
      });
    },
    async shutdown(drainTimeoutMs) {
      shuttingDown = true;
      if (pending > 0) {
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, drainTimeoutMs);
          onIdle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      onIdle = null;
      await new Promise((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    isShuttingDown: () => shuttingDown,
    inFlight: () => pending,
  };
}

// src/runtime.ts
var ConfigLoadError = class extends Error {
  name = 'ConfigLoadError';
};
async function loadConfig(configPath, logger) {
  const file = path4.resolve(configPath);
  let text;
  try {
    text = await readFile3(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigLoadError(`Could not read ${file}: ${reason}`, { cause: error });
  }
  try {
    const result = parseConfig(text, { baseDir: path4.dirname(file) });
    for (const warning of result.warnings) logger.warn(`${path4.basename(file)}: ${warning}`);
    return result;
  } catch (error) {
    if (error instanceof YamlSyntaxError)
      throw new ConfigLoadError(
        `Could not parse ${file} at line ${error.line}, column ${error.column}: ${error.message}`,
        { cause: error },
      );
    throw error;
  }
}
function endpointCount(config) {
  const n = config.endpoints?.size ?? 0;
  return `${n} endpoint${n === 1 ? '' : 's'}`;
}
function formatUrl(address, port) {
  return address.includes(':') ? `http://[${address}]:${port}` : `http://${address}:${port}`;
}
var sidecarHost = (config) =>
  createSidecarHost({ serverDir: config.serverDir, world: config.world, servertap: config.servertap });
async function startRuntime(options) {
  const { logger } = options;
  const createHost = options.createHost ?? sidecarHost;
  const first = await loadConfig(options.configPath, logger);
  let current = Object.freeze({ config: first.config, host: await createHost(first.config) });
  const server = createEndpointServer({ getSnapshot: () => current, logger });
  const address = await server.listen(first.config.port, first.config.bindAddress);
  const url = formatUrl(address.address, address.port);
  logger.info(`Listening on ${url} with ${endpointCount(first.config)}`);
  let reloading = Promise.resolve(true);
  let stopping = null;
  const retire = (host, afterMs) => {
    setTimeout(() => host.close(), afterMs + 1e3).unref();
  };
  const doReload = async () => {
    let next;
    try {
      next = await loadConfig(options.configPath, logger);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      logger.error(`${reason}; keeping the previous configuration`);
      return false;
    }
    const old = current;
    if (next.config.bindAddress !== old.config.bindAddress || next.config.port !== old.config.port) {
      logger.warn(
        `bind_address/port changed to ${next.config.bindAddress}:${next.config.port}; restart to apply (still listening on ${url})`,
      );
    }
    const host = await createHost(next.config);
    current = Object.freeze({ config: next.config, host });
    retire(old.host, old.config.requestTimeoutSeconds * 1e3);
    logger.info(`Reloaded ${path4.basename(options.configPath)} with ${endpointCount(next.config)}`);
    return true;
  };
  return {
    url,
    server,
    snapshot: () => current,
    reload() {
      if (stopping) return Promise.resolve(false);
      reloading = reloading.then(doReload, doReload);
      return reloading;
    },
    shutdown() {
      if (stopping) return stopping;
      stopping = (async () => {
        const { config, host } = current;
        logger.info('Shutting down: new requests are answered 503 while requests in flight finish');
        await server.shutdown(config.requestTimeoutSeconds * 1e3);
        host.deactivate();
        host.close();
        logger.info('Stopped');
      })();
      return stopping;
    },
  };
}

// src/cli.ts
var USAGE = `Usage: endpoint-server [--config <config.yml>]

Serves the endpoints of config.yml as JSON, reading a Minecraft server folder.
Console commands: reload, stop, help. Signals: SIGHUP reloads, SIGTERM/SIGINT stop.`;
function version() {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return pkg.version ?? '0.0.0';
}
async function main() {
  let values2;
  try {
    ({ values: values2 } = parseArgs({
      options: {
        config: { type: 'string', short: 'c' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}
${USAGE}
`);
    return 2;
  }
  if (values2.help) {
    process.stdout.write(`${USAGE}
`);
    return 0;
  }
  if (values2.version) {
    process.stdout.write(`${version()}
`);
    return 0;
  }
  const logger = createConsoleLogger();
  let runtime;
  try {
    runtime = await startRuntime({ configPath: values2.config ?? 'config.yml', logger });
  } catch (error) {
    if (error instanceof ConfigLoadError) logger.error(error.message);
    else logger.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const stop = () => {
    runtime.shutdown().then(
      () => process.exit(0),
      (error) => {
        logger.error(`Shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  const reload = () => {
    void runtime.reload();
  };
  process.on('SIGHUP', reload);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const console = createInterface({ input: process.stdin, terminal: false });
  console.on('line', (line) => {
    const command = line.trim().toLowerCase();
    if (command === '') return;
    if (command === 'reload') reload();
    else if (command === 'stop' || command === 'end') stop();
    else if (command === 'help') logger.info('Commands: reload, stop, help');
    else logger.warn(`Unknown command '${line.trim()}'; commands: reload, stop, help`);
  });
  return null;
}
main().then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}
`);
    process.exit(1);
  },
);
