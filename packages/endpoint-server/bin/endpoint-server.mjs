#!/usr/bin/env -S node --max-semi-space-size=2 --max-old-space-size=64
// Node flags (shebang): a 2 MB semi-space and a 64 MB old-space limit keep V8 from growing its heap eagerly
// under ServerTap load (peak RSS ~81 MB without the old-space limit, ~69 MB with it, same throughput).
// Starts the TypeScript CLI without a separate build step. The sources (and yaml) are bundled once with esbuild
// (tsx's own compiler) into node_modules/.cache/endpoint-server/cli.mjs, rebuilt whenever an input is newer; running that file
// avoids tsx's loader thread, which alone costs ~35 MB of memory. If the build cannot be written
// (read-only install, esbuild missing) or ENDPOINT_SERVER_TSX=1, tsx loads the sources directly.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = fileURLToPath(new URL('..', import.meta.url));
const src = `${pkg}src`;
const out = `${pkg}node_modules/.cache/endpoint-server/cli.mjs`;

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = `${dir}/${entry.name}`;
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** packages/game-files' sources, when this runs from the repository (0 elsewhere: nothing to compare). */
function sharedSources() {
  try {
    return newestSource(fileURLToPath(new URL('../../game-files/src', import.meta.url)));
  } catch {
    return 0;
  }
}

// The build bundles `yaml` (one module instead of ~70 CommonJS files saves ~6 MB of memory), so a newer
// yaml install, or a newer copy of this script, also triggers a rebuild.
function newestInput() {
  // packages/game-files (server.properties) is bundled too.
  let newest = Math.max(newestSource(src), sharedSources(), statSync(fileURLToPath(import.meta.url)).mtimeMs);
  try {
    newest = Math.max(newest, statSync(createRequire(import.meta.url).resolve('yaml/package.json')).mtimeMs);
  } catch {
    // yaml not resolvable from here: the build will fail and tsx takes over
  }
  return newest;
}

function isFresh() {
  try {
    return statSync(out).mtimeMs >= newestInput();
  } catch {
    return false;
  }
}

const BUILD = `
const { buildSync } = require('esbuild');
const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
const [entry, out] = process.argv.slice(1);
const result = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20',
  external: ['prismarine-nbt', 'tsx'], write: false, logLevel: 'silent',
  banner: { js: "import { createRequire as __esCreateRequire } from 'node:module'; const require = __esCreateRequire(import.meta.url);" } });
mkdirSync(require('node:path').dirname(out), { recursive: true });
const tmp = out + '.' + process.pid + '.tmp';
writeFileSync(tmp, result.outputFiles[0].contents);
renameSync(tmp, out);
`;

async function start() {
  if (process.env.ENDPOINT_SERVER_TSX !== '1') {
    if (!isFresh()) spawnSync(process.execPath, ['-e', BUILD, `${src}/cli.ts`, out], { cwd: pkg, stdio: 'ignore' });
    if (isFresh()) {
      await import(pathToFileURL(out).href);
      return;
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}

await start();
