import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console is built to dist/ (hashed file names under assets/) and served by the service at /. `npm run dev -w
// console` serves it with hot reload and sends the API, login and health routes to a service on :8080.
const service = process.env.STATBOARD_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
