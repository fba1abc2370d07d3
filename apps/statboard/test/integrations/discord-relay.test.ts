import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from './support/receiver.ts';

// The Discord relay of the README, run as it stands (only its port changed) between a signed event and a stand-in
// for Discord's webhook endpoint, so the copy that operators paste cannot drift from what is safe.

const APP = fileURLToPath(new URL('../../', import.meta.url));
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe("the README's Discord relay", () => {
  const discord = new Receiver();
  let dir = '';
  let relay: ChildProcess | null = null;
  let url = '';

  beforeAll(async () => {
    const readme = await readFile(join(APP, 'README.md'), 'utf8');
    const code = /\*\*Discord\.\*\*[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    if (!code) throw new Error('README has no Discord relay');
    const port = await freePort();
    url = `http://127.0.0.1:${port}/`;
    dir = await mkdtemp(join(tmpdir(), 'statboard-relay-'));
    // The relay imports standardwebhooks, as its reader installs it: the repository's copy.
    await symlink(join(APP, '../../node_modules'), join(dir, 'node_modules'));
    await writeFile(join(dir, 'discord-relay.mjs'), code.replace('.listen(8787,', `.listen(${port},`));
    await discord.start();
    relay = spawn(process.execPath, [join(dir, 'discord-relay.mjs')], {
      env: { ...process.env, STATBOARD_SECRET: SECRET, DISCORD_WEBHOOK_URL: discord.url },
      stdio: 'inherit',
    });
    for (let i = 0; ; i++) {
      const up = await fetch(url, { method: 'POST', body: '{}' }).then(
        (r) => r.status === 401,
        () => false,
      );
      if (up) break;
      if (i > 200) throw new Error('the relay did not start');
      await new Promise((r) => setTimeout(r, 25));
    }
  });

  afterAll(async () => {
    relay?.kill();
    await discord.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('posts a new leader named @everyone with mentions turned off, so nobody is pinged', async () => {
    const body = JSON.stringify({
      type: 'leaderboard.leader_changed',
      timestamp: new Date().toISOString(),
      data: {
        season: { name: 'Spring' },
        stat: { key: 'kills', display_name: 'Kills' },
        player: { uuid: '7c9e6679-7425-40de-944b-e07fc1f90ae7', username: '@everyone' },
        value: 12,
        previous: { player: { uuid: '16fd2706-8baf-433b-82eb-8c7fada847da', username: '@here' }, value: 11 },
      },
    });
    const id = 'msg_relay_1';
    const at = new Date();
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(SECRET).sign(id, at, body),
      },
      body,
    });
    expect(res.status).toBe(204);
    expect(discord.received).toHaveLength(1);
    const sent = JSON.parse(discord.received[0]!.body) as { content: string; allowed_mentions: unknown };
    expect(sent.content).toContain('**@everyone** took first place in Kills (12), ahead of @here');
    expect(sent.allowed_mentions).toEqual({ parse: [] });
  });

  it('refuses an unsigned event and posts nothing', async () => {
    const before = discord.received.length;
    const res = await fetch(url, { method: 'POST', body: '{"type":"webhook.test"}' });
    expect(res.status).toBe(401);
    expect(discord.received).toHaveLength(before);
  });
});
