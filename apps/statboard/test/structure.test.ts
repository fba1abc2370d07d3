import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The files of `src` a file imports (type-only imports included), by path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('#src/')) out.push(join(SRC, spec.slice(5)));
    else if (spec.startsWith('.')) out.push(resolve(dirname(file), spec));
  }
  return out;
}

describe('source structure', () => {
  it('has no import cycles (type-only imports included)', () => {
    const graph = new Map(sources(SRC).map((f) => [f, importsOf(f)]));
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const next of graph.get(f) ?? []) {
        if (state.get(next) === 'open') {
          cycles.push([...stack.slice(stack.indexOf(next)), next].map((p) => relative(SRC, p)).join(' → '));
        } else if (!state.has(next)) {
          visit(next);
        }
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });

  it('keeps SQL in repos and migrations, and admin routes with their features', () => {
    const files = sources(SRC).map((f) => relative(SRC, f));
    expect(files.filter((f) => f.startsWith('modules/admin/'))).toEqual([]);
    const sql = /\b(SELECT|INSERT INTO|UPDATE \w+ SET|DELETE FROM)\b/;
    const outside = files.filter(
      (f) =>
        sql.test(readFileSync(join(SRC, f), 'utf8')) && !/(^|\/)(repo|admin-repo)\.ts$/.test(f) && !f.startsWith('db/'),
    );
    expect(outside).toEqual([]);
  });

  it('keeps the edge (plugins/, http/) and the access module free of feature modules', () => {
    const features = join(SRC, 'modules');
    const offending = sources(SRC)
      .filter((f) => /^(plugins|http|access)\//.test(relative(SRC, f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((i) => i.startsWith(features + sep))
          .map((i) => `${relative(SRC, f)} → ${relative(SRC, i)}`),
      );
    expect(offending).toEqual([]);
  });

  it("checks a key's restrictions only in src/access", () => {
    // A restriction list read directly (`key.players.includes`, `key.seasons.length`) is a rule written again;
    // src/access/restrictions.ts holds each once.
    const rule = /\bkey\.(players|servers|seasons)\.(includes|length|some)\b/;
    const outside = sources(SRC)
      .filter((f) => !relative(SRC, f).startsWith('access/') && rule.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(outside).toEqual([]);
  });

  it('names no file outside the repository in comments', () => {
    const outside = /DECISIONS|NOTES\.md|stats-service\.md|shared\/(spec|reference)/;
    const files = sources(SRC).filter((f) => outside.test(readFileSync(f, 'utf8')));
    expect(files.map((f) => relative(SRC, f))).toEqual([]);
  });
});

describe('start command', () => {
  it('starts the container and the systemd unit as `npm start` does: the bundle it builds, with its node flags', () => {
    const root = resolve(SRC, '../../..');
    const pkg = JSON.parse(readFileSync(resolve(SRC, '../package.json'), 'utf8')) as {
      scripts: { start: string; prestart: string; build: string };
    };
    const words = pkg.scripts.start.split(/\s+/);
    const flags = words.slice(1, -1);
    expect(flags).toContain('--max-semi-space-size=8');
    expect(words.at(-1)).toBe('dist/server.js');
    // `npm start` builds the bundle first; `npm run build -w statboard` is the same build.
    expect(pkg.scripts.prestart).toBe('node scripts/build.mjs');
    expect(pkg.scripts.build).toBe(pkg.scripts.prestart);
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^RUN node apps\/statboard\/scripts\/build\.mjs$/m);
    const argv = JSON.parse(dockerfile.match(/^CMD (\[.*\])$/m)![1]!) as string[];
    expect(argv.slice(1, -1)).toEqual(flags);
    expect(argv.at(-1)).toBe(`apps/statboard/${words.at(-1)}`);
    // And the systemd unit of deploy/, whose install builds the bundle.
    const unitText = readFileSync(join(root, 'deploy/statboard.service'), 'utf8');
    const unit = unitText.match(/^ExecStart=(.*)$/m)![1]!.split(/\s+/);
    expect(unit.slice(1, -1)).toEqual(flags);
    expect(unit.at(-1)).toBe(`apps/statboard/${words.at(-1)}`);
    expect(unitText).toContain('npm run build -w statboard');
  });
});
