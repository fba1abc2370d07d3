import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../e2e/process.ts';

/** The newest PostgreSQL server binaries of Debian's layout, or null when none is installed. */
export function postgresBin(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const v = versions.at(-1);
  return v === undefined ? null : join(base, v, 'bin');
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as the `postgres` user when we are root (the server refuses to run as root). */
function run(bin: string, args: string[]): string {
  const [cmd, ...rest] = asRoot ? ['runuser', '-u', 'postgres', '--', bin, ...args] : [bin, ...args];
  const r = spawnSync(cmd!, rest, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * A PostgreSQL cluster of the test's own (initdb on a free port, bound to 127.0.0.1), with the faults a
 * service meets in production: stopped, crashed (postmaster killed), hung (every process stopped, as in a
 * partition), connections terminated, and restarted.
 */
export class PgCluster {
  readonly dir: string;
  port = 0;
  private readonly bin: string;

  private constructor(bin: string) {
    this.bin = bin;
    this.dir = mkdtempSync(join(tmpdir(), 'statboard-chaos-pg-'));
    if (asRoot)
      chownSync(
        this.dir,
        Number(execFileSync('id', ['-u', 'postgres']).toString()),
        Number(execFileSync('id', ['-g', 'postgres']).toString()),
      );
  }

  static async create(): Promise<PgCluster> {
    const bin = postgresBin();
    if (bin === null) throw new Error('PostgreSQL server binaries are not installed');
    const c = new PgCluster(bin);
    c.port = await freePort();
    run(join(bin, 'initdb'), [
      '-D',
      c.data,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    c.start();
    return c;
  }

  get data(): string {
    return join(this.dir, 'data');
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    run(join(this.bin, 'pg_ctl'), [
      '-D',
      this.data,
      '-l',
      join(this.dir, 'log'),
      '-w',
      '-t',
      '60',
      'start',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${this.port} -k ${this.dir} -c fsync=off -c max_connections=100`,
    ]);
  }

  /** A fast shutdown (connections are told, in-flight transactions rolled back). */
  stop(): void {
    run(join(this.bin, 'pg_ctl'), ['-D', this.data, '-m', 'fast', '-w', 'stop']);
  }

  private postmasterPid(): number {
    return Number(readFileSync(join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** Every process of the cluster: the postmaster and its children. */
  private pids(): number[] {
    const pm = this.postmasterPid();
    const children = spawnSync('pgrep', ['-P', String(pm)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    return [pm, ...children];
  }

  /** The postmaster and its children killed at once, as in a crash; `start()` then recovers from the WAL. */
  crash(): void {
    for (const pid of this.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    // The kernel needs a moment to release the port and shared memory.
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && spawnSync('pgrep', ['-f', this.data]).status === 0) spawnSync('sleep', ['0.05']);
    rmSync(join(this.data, 'postmaster.pid'), { force: true });
  }

  private hung: number[] = [];

  /** Every process stopped (SIGSTOP): connections stay open, nothing answers. */
  hang(): void {
    // The postmaster first: stopped, it forks no backend, so the children listed after it are all of them (listed
    // before, a backend forked for a new connection in between was left running and answered during the "hang").
    const pm = this.postmasterPid();
    process.kill(pm, 'SIGSTOP');
    this.hung = [pm];
    for (const pid of this.pids()) {
      if (pid === pm) continue;
      process.kill(pid, 'SIGSTOP');
      this.hung.push(pid);
    }
  }

  resume(): void {
    for (const pid of this.hung) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
    this.hung = [];
  }

  /** Terminates every client connection to `database` (as a failover or an operator would). */
  async terminateConnections(database: string): Promise<number> {
    const c = new pg.Client({ connectionString: this.url });
    await c.connect();
    try {
      const r = await c.query(
        'SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      return r.rows[0].n as number;
    } finally {
      await c.end();
    }
  }

  /** Stops whatever state it is in and removes its files. */
  destroy(): void {
    this.resume();
    try {
      this.stop();
    } catch {
      try {
        this.crash();
      } catch {
        // nothing left
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
