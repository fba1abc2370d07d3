// `npm ci` / `npm install` run this (the root package's `prepare`): it builds the console, which the service
// serves at /. A production install without dev dependencies (`npm ci --omit=dev`) has no Vite: it skips the
// build and says so (the Dockerfile builds the console in a stage of its own and copies it in).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../node_modules/vite/package.json', import.meta.url))) {
  console.log('console: not built (no dev dependencies installed); `npm run build` builds it');
  process.exit(0);
}
const run = spawnSync('npm', ['run', 'build', '-w', 'console'], { stdio: 'inherit' });
process.exit(run.status ?? 1);
