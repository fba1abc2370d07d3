import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` warns EBADENGINE for every installed package whose `engines.node` excludes the running Node. The
 * README promises Node 20: every package in the lock must accept the oldest Node the root's `engines` allows.
 * (cookie 2 wants Node 22; `overrides` in package.json pins the cookie 1.1 line, whose API is a superset of what
 * @fastify/cookie and light-my-request call.)
 */

const ROOT = new URL('../', import.meta.url).pathname;

type Version = [number, number, number];

function parse(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text
    .replace(/^v/, '')
    .split('.')
    .map((p) => (p === 'x' || p === '*' ? 0 : Number(p)));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** How many leading parts a version in a range names (`20` → 1, `20.19` → 2, `20.19.0` → 3). */
function parts(text: string): number {
  return text.split('.').filter((p) => p !== 'x' && p !== '*').length;
}

/** One comparator of a range (`>=20.19.0`, `^20.19.0`, `20`, `*`) against a version. */
function satisfiesOne(v: Version, comparator: string): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*v?([\dx*.]+)$/.exec(comparator);
  if (!m) throw new Error(`unknown engines comparator '${comparator}'`);
  const op = m[1] ?? '';
  const text = m[2]!;
  if (text === '*' || text === 'x') return true;
  const w = parse(text);
  const c = compare(v, w);
  switch (op) {
    case '>=':
      return c >= 0;
    case '>':
      return c > 0;
    case '<=':
      return c <= 0;
    case '<':
      return c < 0;
    case '^':
      return c >= 0 && (w[0] > 0 ? v[0] === w[0] : v[0] === 0 && v[1] === w[1]);
    case '~':
      return c >= 0 && v[0] === w[0] && (parts(text) < 2 || v[1] === w[1]);
    default:
      // A bare or `=` version names every version it does not narrow down: `20` is any 20.x.y.
      return v.slice(0, parts(text)).every((n, i) => n === w[i]);
  }
}

/** A node-semver range of the forms found in `engines`: `a || b`, each a list of comparators that must all hold. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alt) => {
    const comparators = alt
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.length === 0 || comparators.every((c) => satisfiesOne(v, c));
  });
}

describe('dependencies and the Node version the README names', () => {
  it('reads engine ranges as npm does', () => {
    expect(satisfies('20.19.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(satisfies('20.12.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(satisfies('20.19.0', '>=22')).toBe(false);
    expect(satisfies('20.19.0', '18 || 20 || >=22')).toBe(true);
    expect(satisfies('20.19.0', '>=16 || 14 >=14.17')).toBe(true);
    expect(satisfies('20.19.0', '>= 10.x')).toBe(true);
    expect(satisfies('20.19.0', '*')).toBe(true);
    expect(satisfies('20.19.0', '^16 || ^18')).toBe(false);
  });

  it('the root asks for Node 20, and every package in the lock accepts its oldest Node 20 (no EBADENGINE)', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    const oldest = /^>=\s*(20(?:\.\d+){0,2})$/.exec(root.engines.node)?.[1];
    expect(oldest, root.engines.node).toBeDefined();
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refused = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !Array.isArray(p.engines) && p.engines?.node !== undefined)
      .filter(([, p]) => !satisfies(oldest!, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}@${p.version}: node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
