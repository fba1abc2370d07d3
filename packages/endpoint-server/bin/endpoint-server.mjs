#!/usr/bin/env node
// Starts the TypeScript CLI without a separate build step. The sources are transpiled once with esbuild
// (tsx's own compiler) into node_modules/.cache/endpoint-server/cli.mjs, rebuilt whenever a source file is newer; running that file
// avoids tsx's loader thread, which alone costs ~35 MB of memory. If the build cannot be written
// (read-only install, esbuild missing) or ENDPOINT_SERVER_TSX=1, tsx loads the sources directly.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
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

function isFresh() {
  try {
    return statSync(out).mtimeMs >= newestSource(src);
  } catch {
    return false;
  }
}

const BUILD = `
const { buildSync } = require('esbuild');
const { mkdirSync, renameSync, writeFileSync } = require('node:fs');
const [entry, out] = process.argv.slice(1);
const result = buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20',
  packages: 'external', write: false, logLevel: 'silent' });
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
