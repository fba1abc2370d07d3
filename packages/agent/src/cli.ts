import { parseArgs } from 'node:util';
import { Agent } from './agent.ts';

export const USAGE = `Usage: statboard-agent --server-dir DIR --url URL [--once]

Uploads a Minecraft server's own statistics (DIR/<level-name>/stats/*.json, names from DIR/usercache.json) to
Statboard as the server's verified values, within 15 s of a file changing; with RCON enabled in
DIR/server.properties, also who is online (every 30 s). Remembers what it sent in DIR/.statboard-agent.json.

  --server-dir DIR      the server's folder (with server.properties)
  --url URL             the Statboard service, e.g. https://stats.example.com
  --once                upload every file not yet uploaded, then exit (0, or 1 if an upload failed)
  --scan-seconds N      how often the folder is scanned besides watching it (default 15)
  --online-seconds N    how often who is online is read over RCON (default 30)
  -h, --help            this text

The API key comes from the environment only: STATBOARD_KEY (an integration key with the ingest:server scope,
restricted to this server). It is never taken on the command line, where other users of the machine see it.`;

function seconds(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) throw new Error(`--${name} must be a number of seconds (0–86400)`);
  return n;
}

/** The program: returns its exit code (2: a command line it cannot run with). */
export async function main(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (args.some((a) => a === '--key' || a.startsWith('--key=') || a.startsWith('stb_'))) {
    process.stderr.write('error: the API key is never taken on the command line: set STATBOARD_KEY\n');
    return 2;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        'server-dir': { type: 'string' },
        url: { type: 'string' },
        once: { type: 'boolean' },
        'scan-seconds': { type: 'string' },
        'online-seconds': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const serverDir = values['server-dir'];
  const url = values.url;
  const key = env.STATBOARD_KEY?.trim() ?? '';
  const problems: string[] = [];
  if (typeof serverDir !== 'string' || serverDir === '') problems.push('--server-dir is required');
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url)) problems.push('--url must be an http(s) URL');
  if (key === '') problems.push('STATBOARD_KEY is not set (an API key with the ingest:server scope)');
  let scanMs = 15_000;
  let onlineMs = 30_000;
  try {
    scanMs = seconds(values['scan-seconds'] as string | undefined, 'scan-seconds', 15) * 1000;
    onlineMs = seconds(values['online-seconds'] as string | undefined, 'online-seconds', 30) * 1000;
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.map((p) => `error: ${p}`).join('\n')}\n\n${USAGE}\n`);
    return 2;
  }
  const agent = new Agent({
    serverDir: serverDir as string,
    url: url as string,
    key,
    scanIntervalMs: scanMs,
    onlineIntervalMs: onlineMs,
    backoffMs: Number(env.STATBOARD_AGENT_BACKOFF_MS) || undefined,
  });
  try {
    if (values.once) return (await agent.runOnce()) ? 0 : 1;
    await agent.start();
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n`);
    return 1;
  }
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void agent.stop().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
