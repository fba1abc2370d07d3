import { expect } from 'vitest';
import type { Role } from '#src/access/roles.ts';
import { ACTOR, bearer, modBatch } from '../../helpers.ts';
import { type Browser, signIn, type World } from './world.ts';

export const PLAYER_UUID = '3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b';
export const STAT_KEY = 'minecraft.mined:minecraft.stone';

/** A bootstrapped workspace with one signed-in user per role plus one without a role, and some data. */
export interface Team {
  workspaceId: string;
  browsers: Record<Role | 'none', Browser>;
  userIds: Record<Role | 'none', string>;
  serverId: string;
  seasonId: string;
  /** A website key (valid API key for the "API key on an admin route" checks). */
  websiteToken: string;
  clientKeyId: string;
}

export async function buildTeam(w: World): Promise<Team> {
  const owner = await signIn(w, 'owner@example.com');
  const { token } = await w.services.setup.createToken(ACTOR);
  const boot = await owner.app('POST', '/api/v1/setup/bootstrap', { body: { token, workspace_name: 'Team' } });
  expect(boot.statusCode, boot.body).toBe(201);
  const workspaceId = (boot.json() as { data: { workspace_id: string } }).data.workspace_id;
  const browsers = { owner } as Record<Role | 'none', Browser>;
  const userIds = {} as Record<Role | 'none', string>;
  for (const role of ['admin', 'analyst', 'readonly', 'none'] as const) {
    browsers[role] = await signIn(w, `${role}@example.com`);
  }
  for (const role of ['owner', 'admin', 'analyst', 'readonly', 'none'] as const) {
    userIds[role] = ((await browsers[role].app('GET', '/api/v1/admin/me')).json() as { id: string }).id;
  }
  for (const role of ['admin', 'analyst', 'readonly'] as const) {
    const res = await owner.app('PUT', `/api/v1/admin/users/${userIds[role]}`, { body: { role } });
    expect(res.statusCode, res.body).toBe(200);
  }
  const server = await w.services.servers.create(ACTOR, workspaceId, {
    name: 'Main',
    hostname: 'mc.example.com',
    port: 25565,
  });
  const season = await w.services.seasons.create(ACTOR, workspaceId, { name: 'Season 1', slug: 's1', active: true });
  const client = await w.services.keys.create(ACTOR, workspaceId, {
    name: 'mod',
    type: 'client',
    scopes: ['ingest:write'],
  });
  const website = await w.services.keys.create(ACTOR, workspaceId, {
    name: 'site',
    type: 'website',
    scopes: ['players:read'],
  });
  const ingest = await w.app.inject({
    method: 'POST',
    url: '/api/v1/ingest/batch',
    headers: bearer(client.secret),
    payload: modBatch({ uuid: PLAYER_UUID, stats: [{ key: STAT_KEY, value: 7 }] }),
  });
  expect(ingest.statusCode, ingest.body).toBe(200);
  await w.services.flush();
  return {
    workspaceId,
    browsers,
    userIds,
    serverId: server.id,
    seasonId: season.id,
    websiteToken: website.secret,
    clientKeyId: client.data.id,
  };
}
