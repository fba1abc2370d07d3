import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspect, MAX_FILE_BYTES, readRegularFile } from './regular-file.ts';

/** Real files of every kind, as a world folder handed over by someone else may hold them. */

let dir: string;
let socket: Server;
const SECRET = 'root:x:0:0:root:/root:/bin/bash';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'statboard-regular-file-'));
  await writeFile(join(dir, 'plain.json'), '{"stats": {}}');
  await writeFile(join(dir, 'secret'), SECRET);
  await symlink(join(dir, 'secret'), join(dir, 'link.json'));
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  await mkdir(join(dir, 'folder.json'));
  await writeFile(join(dir, 'big.json'), '');
  await truncate(join(dir, 'big.json'), 9 * 1024 * 1024);
  await writeFile(join(dir, 'limit.json'), '');
  await truncate(join(dir, 'limit.json'), MAX_FILE_BYTES);
  socket = createServer();
  await new Promise<void>((resolve) => socket.listen(join(dir, 'socket.json'), resolve));
});
afterAll(async () => {
  await new Promise((resolve) => socket?.close(resolve));
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('reading only regular files of at most 8 MB', () => {
  it('reads a regular file with its modification time', async () => {
    const r = await readRegularFile(join(dir, 'plain.json'));
    expect(r.ok && r.bytes.toString()).toBe('{"stats": {}}');
    expect(r.ok && r.mtime).toBeInstanceOf(Date);
    expect(await inspect(join(dir, 'plain.json'))).toEqual({ ok: true, size: 13 });
  });

  it('reads a file of exactly 8 MB, and refuses one larger without reading it', async () => {
    const r = await readRegularFile(join(dir, 'limit.json'));
    expect(r.ok && r.bytes.length).toBe(MAX_FILE_BYTES);
    expect(await inspect(join(dir, 'big.json'))).toEqual({ ok: false, reason: 'larger than 8 MB: not read' });
    expect(await readRegularFile(join(dir, 'big.json'))).toEqual({ ok: false, reason: 'larger than 8 MB: not read' });
  });

  it('never follows a symbolic link, even one that appears after the lstat (O_NOFOLLOW)', async () => {
    const reason = 'a symbolic link: not followed';
    expect(await inspect(join(dir, 'link.json'))).toEqual({ ok: false, reason });
    const r = await readRegularFile(join(dir, 'link.json'));
    expect(r).toEqual({ ok: false, reason });
    expect(JSON.stringify(r)).not.toContain('root');
  });

  it('never waits on a FIFO, even one that appears after the lstat (O_NONBLOCK), nor reads a socket or a folder', async () => {
    for (const [name, kind] of [
      ['fifo.json', 'a named pipe'],
      ['socket.json', 'a socket'],
      ['folder.json', 'a directory'],
    ]) {
      const reason = `not a regular file (${kind})`;
      expect(await inspect(join(dir, name!)), name).toEqual({ ok: false, reason });
      // Opened directly: a FIFO without a writer would block an ordinary open forever.
      const r = await readRegularFile(join(dir, name!));
      expect(r.ok, name).toBe(false);
    }
    expect(await readRegularFile(join(dir, 'fifo.json'))).toEqual({
      ok: false,
      reason: 'not a regular file (a named pipe)',
    });
    expect(await inspect('/dev/null')).toEqual({ ok: false, reason: 'not a regular file (a device)' });
  });

  it('says a missing file is missing', async () => {
    expect(await inspect(join(dir, 'nope.json'))).toEqual({ ok: false, reason: 'unreadable: ENOENT', missing: true });
  });
});
