import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSite, consolePages } from './console.ts';

describe("the console's pages, from its build", () => {
  let dist = '';
  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'statboard-console-pages-'));
  });
  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
  });

  it('is `/` alone without a build', () => {
    expect(consolePages(join(dist, 'missing'))).toEqual(['/']);
  });

  it("reads the build's pages.json, keeping only page paths outside the API, once each", async () => {
    const listed = ['/keys', '/players/:uuid', '/api/v1/players', '/auth/login', 'keys', '/a b', 7, '/keys'];
    await writeFile(join(dist, 'pages.json'), JSON.stringify(listed));
    expect(consolePages(dist)).toEqual(['/', '/keys', '/players/:uuid']);
  });

  it('answers every listed page with the console, a deep link included', async () => {
    await writeFile(join(dist, 'pages.json'), JSON.stringify(['/', '/webhooks/:id']));
    await writeFile(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = Fastify();
    new ConsoleSite(dist).register(app);
    const page = await app.inject({ url: '/webhooks/3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect((await app.inject({ url: '/keys' })).statusCode).toBe(404);
    await app.close();
  });
});
