import { type ChildProcess, spawn } from 'node:child_process';
import { freePort, ROOT } from '../../e2e/process.ts';

/**
 * The suite brings its own databases: it runs on the embedded-database pass of `npm test` and is skipped when
 * the same tests run again against TEST_DATABASE_URL.
 */
export const ONCE_DONE = process.env.TEST_DATABASE_URL !== undefined && process.env.TEST_DATABASE_URL !== '';

/** One JSON log line of the service. */
export interface LogLine {
  level: number;
  msg: string;
  time: number;
  err?: { stack?: string };
  [field: string]: unknown;
}

/** The service as a real process (`node --import tsx apps/statboard/src/server.ts`), its log parsed. */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  readonly lines: LogLine[] = [];
  readonly raw: string[] = [];
  url = '';
  private exit: Promise<{ code: number | null; signal: string | null }> | null = null;

  constructor(
    private readonly env: Record<string, string>,
    private port = 0,
  ) {}

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, ...this.env, PORT: String(this.port), HOST: '127.0.0.1' };
    delete env.TEST_DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/statboard/src/server.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let partial = '';
    child.stdout!.on('data', (d: Buffer) => {
      partial += d.toString('utf8');
      const parts = partial.split('\n');
      partial = parts.pop()!;
      for (const l of parts) {
        if (!l) continue;
        this.raw.push(l);
        try {
          this.lines.push(JSON.parse(l) as LogLine);
        } catch {
          // not JSON (should not happen)
        }
      }
    });
    child.stderr!.on('data', (d: Buffer) => this.raw.push(d.toString('utf8')));
    this.url = `http://127.0.0.1:${this.port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`service exited (${child.exitCode}):\n${this.raw.join('\n')}`);
      try {
        const r = await fetch(`${this.url}/health/ready`);
        await r.arrayBuffer();
        if (r.ok) return;
      } catch {
        // not yet listening
      }
      if (Date.now() > deadline) throw new Error(`service not ready:\n${this.raw.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  get pid(): number {
    return this.child?.pid ?? 0;
  }

  signal(sig: NodeJS.Signals): void {
    this.child?.kill(sig);
  }

  /** Waits for the process to end; returns its exit code (null when killed by a signal). */
  async exited(): Promise<{ code: number | null; signal: string | null }> {
    return (await this.exit) ?? { code: null, signal: null };
  }

  /** Log lines from `since` (ms since epoch) on. */
  linesSince(since: number): LogLine[] {
    return this.lines.filter((l) => l.time >= since);
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const t = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
      await this.exited();
      clearTimeout(t);
    }
  }
}
