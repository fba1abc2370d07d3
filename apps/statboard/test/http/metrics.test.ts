import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#src/app.ts';
import { ChangeBus } from '#src/cache/bus.ts';
import { MetricsListener } from '#src/metrics/listener.ts';
import { Metrics } from '#src/metrics/metrics.ts';
import { WebhookDispatcher } from '#src/modules/webhooks/dispatcher.ts';
import { buildServices, type Services } from '#src/services.ts';
import {
  ACTOR,
  bearer,
  createTestDb,
  type Fixture,
  modBatch,
  seedWorkspace,
  type TestDb,
  testConfig,
} from '../helpers.ts';
import { Receiver } from '../integrations/support/receiver.ts';

// Metrics as an operator's Prometheus sees them: the app as it ships, on a real port, with the metrics on their
// own listener; every count below is exact for the traffic the test sends.

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const SILENT = { info: () => undefined, warn: () => undefined };

/** `name{labels} value` lines of the text format, as label maps and numbers. */
function parse(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

describe('Prometheus metrics on their own listener', () => {
  let tdb: TestDb;
  let services: Services;
  let app: FastifyInstance;
  let listener: MetricsListener;
  let dispatcher: WebhookDispatcher;
  const receiver = new Receiver();
  let fx: Fixture;
  let api = '';
  let scrapeUrl = '';

  const call = (path: string, init: RequestInit = {}) => fetch(`${api}${path}`, init);
  const upload = (token: string, body: unknown, query = '') =>
    call(`/api/v1/ingest/batch${query}`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const scrape = async () => parse(await (await fetch(scrapeUrl)).text());
  const sample = (all: ReturnType<typeof parse>, name: string, labels: Record<string, string> = {}) =>
    all
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((n, s) => n + s.value, 0);

  beforeAll(async () => {
    await receiver.start();
    tdb = await createTestDb();
    const config = testConfig({ WEBHOOK_ALLOW_PRIVATE: '1' });
    const metrics = new Metrics();
    services = buildServices(tdb.db, config, { bus: ChangeBus.local(), metrics });
    app = await buildApp({ config, services });
    await app.listen({ port: 0, host: '127.0.0.1' });
    api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    listener = await MetricsListener.start(metrics, '127.0.0.1', 0);
    scrapeUrl = `http://127.0.0.1:${listener.port}/metrics`;
    dispatcher = new WebhookDispatcher(tdb.db, services.outbox, {
      timeoutMs: 1_000,
      allowPrivate: true,
      retryDelaysMs: [50],
      pollMs: 25,
      log: SILENT,
      onResult: (r) => metrics.webhookDelivery(r),
    });
    dispatcher.start();
    fx = await seedWorkspace(services);
  }, 60_000);

  afterAll(async () => {
    await dispatcher?.stop();
    await listener?.close();
    await app?.close();
    await services?.flush().catch(() => undefined);
    await tdb?.drop();
    await receiver.stop();
  });

  it('answers only GET /metrics, in the Prometheus text format, with every series of the contract', async () => {
    const res = await fetch(scrapeUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    for (const name of [
      'statboard_http_requests_total',
      'statboard_http_request_duration_seconds',
      'statboard_ingest_batches_total',
      'statboard_ingest_values_total',
      'statboard_ingest_rejections_total',
      'statboard_cache_requests_total',
      'statboard_webhook_deliveries_total',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect((await fetch(`http://127.0.0.1:${listener.port}/`)).status).toBe(404);
    expect((await fetch(scrapeUrl, { method: 'POST' })).status).toBe(405);
    // The API does not serve them: they are for the operator's network only.
    expect((await call('/metrics')).status).toBe(404);
  });

  it('counts requests, uploads, values, rejections, cache reads and webhook deliveries exactly', async () => {
    await services.webhooks.create(ACTOR, fx.workspaceId, { url: receiver.url, events: ['player.first_seen'] });
    // The first delivery attempt fails (500), the retry succeeds.
    receiver.behave = (n) => (n === 1 ? 'fail' : 'ok');
    const before = await scrape();
    const players = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
    const stats = [
      { key: 'minecraft.custom:minecraft.jump', value: 10 },
      { key: 'minecraft.custom:minecraft.walk_one_cm', value: 500 },
      { key: 'minecraft.mined:minecraft.stone', value: 7 },
    ];
    for (const uuid of players) expect((await upload(fx.keys.client!, modBatch({ uuid, stats }))).status).toBe(200);
    expect((await upload(fx.keys.client!, modBatch({ uuid: players[0], stats }))).status).toBe(200);
    expect((await upload(fx.keys.client!, modBatch({ stats }), '?dry_run=true')).status).toBe(200);
    expect((await upload(fx.keys.client!, modBatch({ hostname: 'unknown.example.com' }))).status).toBe(404);
    expect((await upload('sb_client_notarealkey', modBatch())).status).toBe(401);
    expect((await upload(fx.keys.website!, modBatch())).status).toBe(403);

    // The same key read three times: Fastify answers the first (and loads it), the fast path the others.
    const board = `/api/v1/leaderboards?season=${fx.seasonSlug}&stat=minecraft.custom:minecraft.jump`;
    for (let i = 0; i < 3; i++) expect((await call(board, { headers: bearer(fx.keys.website!) })).status).toBe(200);
    expect(app.fastReads.served).toBeGreaterThan(0);
    for (const uuid of players) {
      expect((await call(`/api/v1/players/${uuid}`, { headers: bearer(fx.keys.website!) })).status).toBe(200);
    }
    expect((await call(`/api/v1/players/${UUID_MISSING}`, { headers: bearer(fx.keys.website!) })).status).toBe(404);
    expect((await call(`/no/such/route/${players[0]}?key=${fx.keys.website}`)).status).toBe(404);

    // A delivery is counted once the service has read the receiver's answer and stored the attempt, a moment
    // after the receiver has taken it: wait for the count, not for the receiver.
    const since = (now: typeof before, name: string, labels: Record<string, string> = {}) =>
      sample(now, name, labels) - sample(before, name, labels);
    const deadline = Date.now() + 10_000;
    let after = await scrape();
    while (
      since(after, 'statboard_webhook_deliveries_total', { result: 'success' }) < players.length &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 25));
      after = await scrape();
    }
    expect(receiver.accepted).toHaveLength(players.length);
    const delta = (name: string, labels: Record<string, string> = {}) => since(after, name, labels);

    expect(delta('statboard_ingest_batches_total', { result: 'accepted' })).toBe(3);
    expect(delta('statboard_ingest_batches_total', { result: 'dry_run' })).toBe(1);
    expect(delta('statboard_ingest_batches_total', { result: 'rejected' })).toBe(3);
    expect(delta('statboard_ingest_batches_total', { result: 'error' })).toBe(0);
    expect(delta('statboard_ingest_values_total')).toBe(9);
    expect(delta('statboard_ingest_rejections_total', { code: 'NOT_FOUND' })).toBe(1);
    expect(delta('statboard_ingest_rejections_total', { code: 'INVALID_API_KEY' })).toBe(1);
    expect(delta('statboard_ingest_rejections_total', { code: 'INSUFFICIENT_SCOPE' })).toBe(1);

    const ingest = { route: '/api/v1/ingest/batch', method: 'POST' };
    expect(delta('statboard_http_requests_total', { ...ingest, status: '200' })).toBe(4);
    expect(delta('statboard_http_requests_total', { ...ingest, status: '404' })).toBe(1);
    expect(delta('statboard_http_requests_total', { ...ingest, status: '401' })).toBe(1);
    expect(delta('statboard_http_requests_total', { ...ingest, status: '403' })).toBe(1);
    expect(delta('statboard_http_request_duration_seconds_count', ingest)).toBe(7);
    // Both paths of a cached read count in the same series.
    const lb = { route: '/api/v1/leaderboards', method: 'GET' };
    expect(delta('statboard_http_requests_total', { ...lb, status: '200' })).toBe(3);
    expect(delta('statboard_http_request_duration_seconds_count', lb)).toBe(3);
    const player = { route: '/api/v1/players/:player', method: 'GET' };
    expect(delta('statboard_http_requests_total', { ...player, status: '200' })).toBe(2);
    expect(delta('statboard_http_requests_total', { ...player, status: '404' })).toBe(1);
    expect(delta('statboard_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' })).toBe(1);

    // The client key was verified 7 times after its first load (hits); the website key loaded once.
    expect(delta('statboard_cache_requests_total', { cache: 'api_key', result: 'hit' })).toBeGreaterThanOrEqual(10);
    expect(delta('statboard_cache_requests_total', { cache: 'api_key', result: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(delta('statboard_cache_requests_total', { cache: 'leaderboard_top', result: 'miss' })).toBe(1);
    expect(delta('statboard_cache_requests_total', { cache: 'leaderboard_top', result: 'hit' })).toBe(2);

    expect(delta('statboard_webhook_deliveries_total', { result: 'failure' })).toBe(1);
    expect(delta('statboard_webhook_deliveries_total', { result: 'success' })).toBe(2);
    expect(delta('statboard_webhook_deliveries_total', { result: 'given_up' })).toBe(0);
  }, 30_000);

  it('keeps labels bounded: route templates, never a raw path, a player or a key', async () => {
    const text = await (await fetch(scrapeUrl)).text();
    const ours = parse(text).filter((s) => s.name.startsWith('statboard_'));
    expect(ours.length).toBeGreaterThan(0);
    for (const s of ours) {
      for (const v of Object.values(s.labels)) {
        expect(v).not.toMatch(UUID);
        expect(v).not.toContain('?');
        expect(v).not.toMatch(/sb_/);
      }
      if (s.labels.route !== undefined) expect(s.labels.route).toMatch(/^(unmatched|\/[a-z0-9/:._-]*)$/);
    }
    for (const token of Object.values(fx.keys)) expect(text).not.toContain(token);
  });
});

const UUID_MISSING = '99999999-9999-4999-8999-999999999999';
