import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Env, freePort, makeEnv, startService } from './process.ts';

describe('METRICS_PORT as an operator sets it', () => {
  let env: Env;
  let taken: Server;
  let takenPort = 0;

  beforeAll(async () => {
    env = await makeEnv();
    takenPort = await freePort();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(takenPort, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await env.cleanup();
  });

  it('stops the start with a clear message when the port is taken', async () => {
    await expect(startService({ ...env.vars, METRICS_PORT: String(takenPort) })).rejects.toThrow(
      new RegExp(`exited with 2:[^]*METRICS_PORT ${takenPort} is in use on 127\\.0\\.0\\.1`),
    );
  }, 60_000);

  it('serves /metrics on its own port, with the requests the API answered', async () => {
    const metricsPort = await freePort();
    const service = await startService({ ...env.vars, METRICS_PORT: String(metricsPort) });
    try {
      expect((await fetch(`${service.url}/api/v1/players`)).status).toBe(401);
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(text).toContain('statboard_http_requests_total{route="/api/v1/players",method="GET",status="401"} 1');
      expect(text).toContain('process_resident_memory_bytes');
      expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 60_000);
});
