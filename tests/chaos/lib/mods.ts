import { randomUUID } from 'node:crypto';

/** What a client got for one request. */
export interface Answer {
  at: number;
  ms: number;
  /** HTTP status, or 0 for a network error (refused, reset, timed out). */
  status: number;
  code: string | null;
  retryAfter: string | null;
}

interface Batch {
  observedAt: string;
  value: number;
  eventId: string;
  body: string;
}

/**
 * A mod-like client: one player with one session, uploading its batches one at a time with absolute, growing
 * values and one event each, and the HM Stats mod's retry rule: a 2xx moves on to the next batch; a 408, 429,
 * 5xx or a network error retries the same batch after 2^n of a base delay, capped (the mod: 2^n s up to 120 s;
 * here 2^n × 50 ms up to 1 s, the same shape in test time); `Retry-After` is ignored.
 */
export class ModClient {
  readonly uuid = randomUUID();
  private readonly session = randomUUID();
  private counter = 0;
  private pending: Batch | null = null;
  readonly acked: Batch[] = [];
  readonly answers: Answer[] = [];
  private stopped = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly url: () => string,
    private readonly key: string,
    private readonly stat: string,
    private readonly intervalMs = 40,
  ) {}

  private next(): Batch {
    const value = ++this.counter;
    const eventId = randomUUID();
    const observedAt = new Date().toISOString();
    const body = JSON.stringify({
      protocol_version: 1,
      client: { mod_version: '1.2.0', minecraft_version: '1.21.4', fabric_loader_version: '0.16.9' },
      player: { uuid: this.uuid, username: `Chaos${this.uuid.slice(0, 6)}` },
      server: { hostname: 'mc.example.com', port: 25565 },
      session_id: this.session,
      observed_at: observedAt,
      stats: [{ key: this.stat, value }],
      events: [{ id: eventId, type: value === 1 ? 'SESSION_STARTED' : 'CHAOS_TICK', occurred_at: observedAt }],
    });
    return { observedAt, value, eventId, body };
  }

  start(): void {
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      this.pending ??= this.next();
      const t = performance.now();
      const at = Date.now();
      let status = 0;
      let code: string | null = null;
      let retryAfter: string | null = null;
      try {
        const res = await fetch(`${this.url()}/api/v1/ingest/batch`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
          body: this.pending.body,
          signal: AbortSignal.timeout(20_000),
        });
        status = res.status;
        retryAfter = res.headers.get('retry-after');
        const text = await res.text();
        if (status !== 200) code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
      } catch {
        status = 0;
      }
      this.answers.push({ at, ms: performance.now() - t, status, code, retryAfter });
      if (status >= 200 && status < 300) {
        this.acked.push(this.pending);
        this.pending = null;
        failures = 0;
        await sleep(this.intervalMs);
      } else if (status === 0 || status === 408 || status === 429 || status >= 500) {
        failures++;
        await sleep(Math.min(50 * 2 ** failures, 1_000));
      } else {
        throw new Error(`unexpected answer ${status} ${code}`);
      }
    }
  }

  get lastAcked(): Batch | undefined {
    return this.acked.at(-1);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
