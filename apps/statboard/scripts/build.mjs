// Builds what `npm start` runs: the service's TypeScript sources bundled into one JavaScript module,
// `dist/server.js` (the embedded database's code in a chunk of its own, loaded only when it is used). Packages
// in node_modules stay imports (but this repository's own). `npm start` runs this first (`prestart`, ~0.1 s); the Dockerfile and the systemd
// install run it once. Running the bundle instead of the sources through tsx saves the process tsx's loader
// thread: about 30 MB of memory on PostgreSQL, 40 with the embedded database (README, "Caches and memory").
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

/** `@statboard/sdk/format` and the like: resolved as Node resolves them (their `exports`), then bundled. */
const workspacePackages = {
  name: 'workspace-packages',
  setup(b) {
    b.onResolve({ filter: /^@statboard\// }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)) }));
  },
};
const dist = join(root, 'dist');

const result = await build({
  absWorkingDir: root,
  entryPoints: ['src/server.ts'],
  outdir: dist,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // The workspace's own packages are TypeScript sources (no build of their own): bundled, unlike the rest.
  plugins: [workspacePackages],
  write: false,
  logLevel: 'warning',
});

// Each file is written beside its place and renamed into it, so that a service starting from this folder at
// the same moment reads either the old file or the new one, never half of one; the entry is written last.
await mkdir(dist, { recursive: true });
const files = [...result.outputFiles].sort(
  (a, b) => Number(a.path.endsWith('server.js')) - Number(b.path.endsWith('server.js')),
);
for (const f of files) {
  const temporary = `${f.path}.${process.pid}.tmp`;
  await writeFile(temporary, f.contents);
  await rename(temporary, f.path);
}
// Chunks of earlier builds (their names carry a hash of their contents).
const written = new Set(files.map((f) => basename(f.path)));
for (const name of await readdir(dist)) {
  if (name.endsWith('.js') && !written.has(name)) await rm(join(dist, name), { force: true });
}
