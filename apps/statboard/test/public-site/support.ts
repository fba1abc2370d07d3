import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Services } from '#src/services.ts';
import type { Team } from '../admin/support/team.ts';
import type { World } from '../admin/support/world.ts';
import { ACTOR, bearer, modBatch } from '../helpers.ts';

export const PLAY_TIME = 'minecraft.custom:minecraft.play_time';
export const WALKED = 'minecraft.custom:minecraft.walk_one_cm';
export const STONE = 'minecraft.mined:minecraft.stone';
export const DAMAGE = 'minecraft.custom:minecraft.damage_dealt';
/** A statistic the site must never show: hidden by an admin. */
export const SECRET_STAT = 'minecraft.custom:minecraft.deaths';
/** A player the site must never show. */
export const HIDDEN_PLAYER = { uuid: '0b7e1d2c-3a4f-4b5e-8c6d-7e8f9a0b1c2d', username: 'Hidden_Hannah' };

const NAMES = [
  'Alex',
  'Sunny_Steve',
  'Notch_Fan',
  'Creeper99',
  'Builder_Bob',
  'Ender_Eve',
  'Miner_Max',
  'Redstone_Rae',
  'Skeleton_Sam',
  'Villager_Vi',
  'Blaze_Ben',
  'Piglin_Pat',
  'Golem_Gus',
  'Wither_Wes',
];

export interface SiteData {
  players: { uuid: string; username: string }[];
}

/**
 * Players with values of several units over the last days (history), one hidden player, one hidden statistic,
 * and an older season: what the public pages show and what they must not.
 */
export async function seedSiteData(w: World, t: Team): Promise<SiteData> {
  const s: Services = w.services;
  const client = await s.keys.create(ACTOR, t.workspaceId, {
    name: 'site mod',
    type: 'client',
    scopes: ['ingest:write'],
  });
  const players = NAMES.map((username, i) => ({
    uuid: `${(i + 1).toString(16).padStart(8, '0')}-1111-4222-8333-${(i + 1).toString(16).padStart(12, '0')}`,
    username,
  }));
  const all = [...players, HIDDEN_PLAYER];
  const now = Date.now();
  for (let d = 4; d >= 0; d--) {
    const observedAt = new Date(now - d * 86_400_000 - 60_000).toISOString();
    for (const [i, p] of all.entries()) {
      const grow = 5 - d;
      const res = await w.app.inject({
        method: 'POST',
        url: '/api/v1/ingest/batch',
        headers: bearer(client.secret),
        payload: modBatch({
          uuid: p.uuid,
          username: p.username,
          sessionId: randomUUID(),
          observedAt,
          stats: [
            { key: PLAY_TIME, value: (30 - i) * 12_000 * grow },
            { key: WALKED, value: (i + 3) * 95_000 * grow },
            { key: STONE, value: ((i * 37) % 500) + grow * 10 },
            { key: DAMAGE, value: 150 * (i + 1) },
            { key: SECRET_STAT, value: i + 1 },
          ],
        }),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  }
  await s.flush();
  await s.playerAdmin.update(ACTOR, t.workspaceId, HIDDEN_PLAYER.uuid, { public: false });
  await s.stats.update(ACTOR, t.workspaceId, SECRET_STAT, { public: false });
  await s.stats.update(ACTOR, t.workspaceId, DAMAGE, { display_name: 'Damage <dealt> & "more"' });
  return { players };
}
