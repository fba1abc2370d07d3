/**
 * One-pass templating: substitution is one pass, so text a placeholder produces is never scanned again.
 *
 * A template is compiled once, at config load, into literal text and placeholder slots. Rendering fills the
 * slots; text produced by a slot (a URL name, a provider's answer) is never scanned again, so it cannot inject
 * another placeholder (unlike the original plugin).
 * @packageDocumentation
 */

/** One piece of a compiled template. */
export type TemplatePart =
  | string
  | { readonly kind: 'username' }
  | { readonly kind: 'last_login' }
  | { readonly kind: 'last_seen' }
  | { readonly kind: 'ext'; readonly name: string };

/** A template split into literal text and placeholder slots. */
export interface CompiledTemplate {
  /** The template as configured. */
  readonly source: string;
  /** Literal text and slots, in order. */
  readonly parts: readonly TemplatePart[];
}

/** Values for the slots of a render. */
export interface TemplateValues {
  /** The player name as written in the URL; empty without one. */
  readonly username: string;
  /** Rendered last login, or `never_seen_value`. */
  readonly lastLogin: string;
  /** Rendered last seen, or `never_seen_value`. */
  readonly lastSeen: string;
  /** External placeholder answers keyed by normalised name (`%name%`). */
  readonly external: ReadonlyMap<string, string>;
}

const PLACEHOLDER = /\{(?:(username|last_login|last_seen)|(?:ext|papi):([^{}]+))\}/g;

const USERNAME: TemplatePart = Object.freeze({ kind: 'username' });
const LAST_LOGIN: TemplatePart = Object.freeze({ kind: 'last_login' });
const LAST_SEEN: TemplatePart = Object.freeze({ kind: 'last_seen' });

/**
 * Normalises an external placeholder name: `name` and `%name%` name the same placeholder, sent as `%name%`.
 */
export function normalizeExternalName(name: string): string {
  if (name.length >= 2 && name.startsWith('%') && name.endsWith('%')) return name;
  return `%${name}%`;
}

/** Compiles a template. `{ext:…}` and its alias `{papi:…}` become external slots. */
export function compileTemplate(source: string): CompiledTemplate {
  const parts: TemplatePart[] = [];
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

/** Renders a compiled template in one pass. */
export function renderTemplate(template: CompiledTemplate, values: TemplateValues): string {
  let out = '';
  for (const part of template.parts) {
    if (typeof part === 'string') {
      out += part;
      continue;
    }
    switch (part.kind) {
      case 'username':
        out += values.username;
        break;
      case 'last_login':
        out += values.lastLogin;
        break;
      case 'last_seen':
        out += values.lastSeen;
        break;
      case 'ext':
        // Without an answer (no provider), the placeholder renders as PlaceholderAPI leaves unknown ones.
        out += values.external.get(part.name) ?? part.name;
        break;
    }
  }
  return out;
}

/** One key of an endpoint's `object`, with its JSON-encoded key ready for output. */
export interface ObjectEntry {
  /** The key as configured. */
  readonly key: string;
  /** `JSON.stringify(key)`. */
  readonly keyJson: string;
  /** The value template. */
  readonly template: CompiledTemplate;
  /** `"key":"value"` when the template has no slots; null otherwise. */
  readonly staticJson: string | null;
}

/** A placeholder slot of a compiled template. */
export type TemplateSlot = Exclude<TemplatePart, string>;

/** An endpoint's compiled `object` section. */
export interface CompiledObject {
  /** Entries in configured order. */
  readonly entries: readonly ObjectEntry[];
  /**
   * The whole JSON answer as one list: JSON-escaped literal text (braces, keys, quotes, commas and template
   * text) and slots. Null when a literal holds a UTF-16 surrogate, which JSON.stringify escapes depending on
   * its neighbours, so the text cannot be escaped piece by piece.
   */
  readonly segments: readonly (string | TemplateSlot)[] | null;
  /** Distinct external placeholder names used, normalised, in first-use order. */
  readonly externals: readonly string[];
  /** Whether `{last_login}` or `{last_seen}` appear. */
  readonly usesDates: boolean;
}

/** Compiles an ordered list of key/template pairs. */
export function compileObject(pairs: readonly (readonly [string, string])[]): CompiledObject {
  const externals: string[] = [];
  let usesDates = false;
  const entries = pairs.map(([key, source]): ObjectEntry => {
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
  return Object.freeze({
    entries: Object.freeze(entries),
    segments: compileSegments(entries),
    externals: Object.freeze(externals),
    usesDates,
  });
}

const SURROGATE = /[\ud800-\udfff]/;
/** Whether JSON.stringify copies `text` unchanged: no quote, backslash, control character or surrogate. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

function compileSegments(entries: readonly ObjectEntry[]): readonly (string | TemplateSlot)[] | null {
  const segments: (string | TemplateSlot)[] = [];
  let text = '{';
  let first = true;
  for (const entry of entries) {
    if (!first) text += ',';
    first = false;
    if (entry.staticJson !== null) {
      if (SURROGATE.test(entry.staticJson)) return null;
      text += entry.staticJson;
      continue;
    }
    text += `${entry.keyJson}:"`;
    for (const part of entry.template.parts) {
      if (typeof part === 'string') {
        if (SURROGATE.test(part)) return null;
        text += JSON.stringify(part).slice(1, -1);
        continue;
      }
      segments.push(text, part);
      text = '';
    }
    text += '"';
  }
  if (SURROGATE.test(text)) return null;
  segments.push(`${text}}`);
  return Object.freeze(segments);
}

/**
 * Renders from the precompiled segments: the literal JSON is already escaped, and a slot value is copied as is
 * when JSON.stringify would copy it unchanged. Null when some value needs escaping (the caller then renders
 * entry by entry).
 */
function renderSegments(segments: readonly (string | TemplateSlot)[], values: TemplateValues): string | null {
  const username = isPlain(values.username) ? values.username : null;
  const lastLogin = isPlain(values.lastLogin) ? values.lastLogin : null;
  const lastSeen = isPlain(values.lastSeen) ? values.lastSeen : null;
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'string') {
      out += segment;
      continue;
    }
    let value: string | null;
    switch (segment.kind) {
      case 'username':
        value = username;
        break;
      case 'last_login':
        value = lastLogin;
        break;
      case 'last_seen':
        value = lastSeen;
        break;
      case 'ext': {
        const answer = values.external.get(segment.name) ?? segment.name;
        value = isPlain(answer) ? answer : null;
        break;
      }
    }
    if (value === null) return null;
    out += value;
  }
  return out;
}

/** Renders an object as compact JSON with keys in configured order and every value a string. */
export function renderObject(object: CompiledObject, values: TemplateValues): string {
  if (object.segments !== null) {
    const fast = renderSegments(object.segments, values);
    if (fast !== null) return fast;
  }
  let out = '{';
  let first = true;
  for (const entry of object.entries) {
    if (!first) out += ',';
    first = false;
    out += entry.staticJson ?? `${entry.keyJson}:${JSON.stringify(renderTemplate(entry.template, values))}`;
  }
  return `${out}}`;
}
