import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../apps/statboard/src/config.ts';
import { migrate } from '../../apps/statboard/src/db/migrate.ts';
import { openDatabase } from '../../apps/statboard/src/db/open.ts';
import { CLI_ACTOR } from '../../apps/statboard/src/modules/audit-log/service.ts';
import { buildServices } from '../../apps/statboard/src/services.ts';
import { Receiver } from '../../apps/statboard/test/integrations/support/receiver.ts';
import { type Env, freePort, makeEnv, type Service, startService, TEST_DATABASE_URL } from './process.ts';

/** The service's own pid, from its JSON log lines. */
function servicePid(s: Service): number {
  const pid = Number(/"pid":(\d+)/.exec(s.logs())?.[1]);
  if (!(pid > 0)) throw new Error(`no pid in the log:\n${s.logs()}`);
  return pid;
}

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe(`webhooks survive kill -9 mid-delivery (${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  let env: Env;
  let service: Service | null = null;
  const receiver = new Receiver();
  let clientKey = '';
  let webhookId = '';
  let workspaceId = '';

  beforeAll(async () => {
    await receiver.start();
    // The attempt's timeout leaves the kill room on a loaded machine: the killed attempt must record nothing.
    env = await makeEnv({ WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_TIMEOUT_SECONDS: '5' });
    // Set up with the project's own services, before the service holds the database.
    const config = loadConfig({ ...env.vars });
    const db = await openDatabase(config);
    await migrate(db);
    const services = buildServices(db, config);
    const ws = await services.workspaces.create(CLI_ACTOR, { name: 'Hooks' });
    workspaceId = ws.id;
    await services.servers.create(CLI_ACTOR, ws.id, { hostname: 'mc.example.com', port: 25565 });
    await services.seasons.create(CLI_ACTOR, ws.id, { name: 'S1', slug: 's1', active: true });
    clientKey = (
      await services.keys.create(CLI_ACTOR, ws.id, { name: 'mod', type: 'client', scopes: ['ingest:write'] })
    ).secret;
    webhookId = (await services.webhooks.create(CLI_ACTOR, ws.id, { url: receiver.url, events: ['player.first_seen'] }))
      .data.id;
    await services.flush();
    await db.close();
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await receiver.stop();
    await env?.cleanup();
  });

  it('sends again, after a restart, the delivery that was in flight when the process was killed', async () => {
    service = await startService(env.vars);
    // The first attempt is held open by the receiver, which kills the service as soon as both the attempt has
    // arrived and the upload's answer is back: no polling between them, so the attempt cannot time out (and record
    // its failure) before the kill on a busy machine, and the kill cannot cut off the upload's answer (the delivery
    // can reach the receiver before the answer reaches the test).
    const pid = servicePid(service);
    let answered: () => void = () => {};
    const uploadAnswered = new Promise<void>((done) => {
      answered = done;
    });
    receiver.slowMs = 60_000;
    receiver.behave = (n) => {
      if (n !== 1) return 'ok';
      void uploadAnswered.then(() => process.kill(pid, 'SIGKILL'));
      return 'slow';
    };
    const res = await fetch(`${service.url}/api/v1/ingest/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clientKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        protocol_version: 1,
        client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
        player: { uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7', username: 'Alex' },
        server: { hostname: 'mc.example.com', port: 25565 },
        session_id: '0e1d2c3b-4a59-4687-9786-a5b4c3d2e1f0',
        observed_at: new Date().toISOString(),
        stats: [{ key: 'minecraft.custom:minecraft.jump', value: 3 }],
        events: [],
      }),
    });
    const answer = await res.text();
    answered();
    expect(res.status, answer).toBe(200);
    await waitFor(() => receiver.received.length === 1, 10_000);
    const inFlight = receiver.received[0]!.headers['webhook-id'];
    await waitFor(() => service!.child.exitCode !== null || service!.child.signalCode !== null, 10_000);

    // Restarted with metrics on their own port, which count the attempt that succeeds.
    const metricsPort = await freePort();
    service = await startService({ ...env.vars, METRICS_PORT: String(metricsPort) });
    // The claim of the killed process lapses (twice the timeout and 5 s), then the delivery is sent again.
    await waitFor(() => receiver.accepted.length === 1, 45_000);
    expect(receiver.accepted[0]!.headers['webhook-id']).toBe(inFlight);
    const scraped = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    await waitFor(
      async () => (await scraped()).includes('statboard_webhook_deliveries_total{result="success"} 1'),
      5_000,
    );
    expect(service.logs()).toContain(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(JSON.parse(receiver.accepted[0]!.body)).toMatchObject({
      type: 'player.first_seen',
      data: { player: { uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7', username: 'Alex' } },
    });
    expect(await service.stop()).toBe(0);
    service = null;
    // The deliveries show both attempts: the one the kill cut off left no outcome, the second succeeded.
    const config = loadConfig({ ...env.vars });
    const db = await openDatabase(config);
    const services = buildServices(db, config);
    const page = await services.webhooks.deliveries(workspaceId, webhookId, { page: 1, perPage: 10 });
    await db.close();
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ status: 'delivered', attempts: [{ attempt: 1, status_code: 204 }] });
  }, 120_000);
});
