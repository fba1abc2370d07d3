import { existsSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { PAGES } from './src/pages.ts';

// The console is built to dist/ (hashed file names under assets/) and served by the service at /. `npm run dev -w
// console` serves it with hot reload and sends the API, login and health routes to a service on :8080.
const service = process.env.STATBOARD_URL ?? 'http://127.0.0.1:8080';

/**
 * Writes `dist/pages.json`, the paths of the console's pages (src/pages.ts): the service answers them with the
 * console's page, so a reload of any page works. Fails the build when a page names no component file.
 */
function pageList(): Plugin {
  return {
    name: 'statboard-page-list',
    buildStart() {
      for (const p of PAGES) {
        if (!existsSync(new URL(`./src/pages/${p.component}.tsx`, import.meta.url))) {
          this.error(`src/pages.ts: ${p.path} names ${p.component}, but there is no src/pages/${p.component}.tsx`);
        }
      }
    },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'pages.json',
        source: `${JSON.stringify(PAGES.map((p) => p.path))}\n`,
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), pageList()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/api': service, '/auth': service, '/health': service },
  },
});
