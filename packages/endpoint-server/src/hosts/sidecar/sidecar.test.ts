import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Fixture, playerFileBytes } from '../../../test/helpers.ts';
import { offlinePlayerUuid } from './offline-uuid.ts';
import { parsePlayerFile } from './player-data.ts';
import { parseProperties } from './server-properties.ts';
import { createSidecarHost, readLevelName, serverDirProblems } from './sidecar-host.ts';
import { lastLoginFromExpiresOn, parseUsercache } from './usercache.ts';

describe('sidecar pieces', () => {
  it('computes offline-mode UUIDs like UUID.nameUUIDFromBytes', () => {
    // Known value for the name "Notch" in offline mode.
    expect(offlinePlayerUuid('Notch')).toBe('b50ad385-829d-3141-a216-7e7d7539ba7f');
    expect(offlinePlayerUuid('notch')).not.toBe(offlinePlayerUuid('Notch'));
  });

  it('subtracts one calendar month from usercache expiresOn', () => {
    expect(lastLoginFromExpiresOn('2024-03-31 10:00:00 +0000')?.toISOString()).toBe('2024-02-29T10:00:00.000Z');
    expect(lastLoginFromExpiresOn('2024-01-15 10:00:00 +0200')?.toISOString()).toBe('2023-12-15T08:00:00.000Z');
    expect(lastLoginFromExpiresOn('garbage')).toBeNull();
  });

  it('parses usercache case-insensitively', () => {
    const cache = parseUsercache(
      JSON.stringify([{ name: 'Steve', uuid: '8667BA71-B85A-4004-AF54-457A9734EED7', expiresOn: 'x' }, { bad: 1 }]),
    );
    expect(cache.get('steve')?.uuid).toBe('8667ba71-b85a-4004-af54-457a9734eed7');
    expect(cache.size).toBe(1);
  });

  it('parses server.properties', () => {
    const props = parseProperties('# c\nlevel-name=my\\ world\nmotd = hi\\u0021\nempty=\n');
    expect(props.get('level-name')).toBe('my world');
    expect(props.get('motd')).toBe('hi!');
    expect(props.get('empty')).toBe('');
  });

  it('reads Paper and bukkit times from NBT, longs included', async () => {
    const big = Date.UTC(2030, 0, 1);
    const times = await parsePlayerFile(playerFileBytes({ paperLastLogin: big, bukkitLastPlayed: 5 }));
    expect(times).toEqual({ paperLastLogin: big, paperLastSeen: null, bukkitLastPlayed: 5 });
  });

  it('finds the world from server.properties or defaults to "world", and reads both layouts', async () => {
    const fx = new Fixture();
    try {
      expect(await readLevelName(fx.dir)).toBe('world');
      fx.write('server.properties', 'level-name=lvl\n');
      const uuid = offlinePlayerUuid('Zed');
      fx.writePlayer('lvl/players/data', uuid, { paperLastSeen: 1000, paperLastLogin: 500 });
      const host = await createSidecarHost({ serverDir: fx.dir, world: null, servertap: null });
      try {
        expect(host.world).toBe('lvl');
        const signal = new AbortController().signal;
        expect(await host.findPlayer('Zed', signal)).toEqual({ lastLogin: new Date(500), lastSeen: new Date(1000) });
        expect(await host.findPlayer('zed', signal)).toBeNull();
        expect(await host.resolveExternal(['%a%'], 'Zed', signal)).toEqual(['%a%']);
      } finally {
        host.close();
      }
    } finally {
      fx.remove();
    }
  });

  it('survives a missing server folder', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'es-missing-'));
    rmSync(dir, { recursive: true });
    const host = await createSidecarHost({ serverDir: dir, world: 'w', servertap: null });
    expect(await host.findPlayer('A', new AbortController().signal)).toBeNull();
    host.close();
  });

  it('names the file in every player-file read error', async () => {
    const fx = new Fixture();
    try {
      const uuid = offlinePlayerUuid('Broken');
      fx.write(`world/playerdata/${uuid}.dat`, 'not nbt at all');
      const host = await createSidecarHost({ serverDir: fx.dir, world: null, servertap: null });
      try {
        const failure = await host.findPlayer('Broken', new AbortController().signal).then(
          () => null,
          (e: Error) => e.message,
        );
        expect(failure).toContain(`${uuid}.dat`);
      } finally {
        host.close();
      }
    } finally {
      fx.remove();
    }
  });

  it('lists what a server folder lacks: server.properties, usercache.json, the player data folder', async () => {
    const fx = new Fixture();
    try {
      const empty = await serverDirProblems(fx.dir, null);
      expect(empty).toHaveLength(3);
      expect(empty.join('\n')).toMatch(/server\.properties[\s\S]*usercache\.json[\s\S]*player data folder/);
      fx.write('server.properties', 'level-name=lvl\n');
      fx.write('usercache.json', '[]');
      fx.writePlayer('lvl/playerdata', offlinePlayerUuid('Zed'), { paperLastSeen: 1000, paperLastLogin: 500 });
      expect(await serverDirProblems(fx.dir, null)).toEqual([]);
      expect(await serverDirProblems(path.join(fx.dir, 'nope'), null)).toEqual([
        expect.stringContaining('does not exist'),
      ]);
    } finally {
      fx.remove();
    }
  });
});
