import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '#src/access/scopes.ts';
import { SCOPES } from '#src/access/scopes.ts';
import {
  ACTOR,
  disableKey,
  type Fixture,
  type HttpAnswer,
  modBatch,
  seedWorkspace,
  type TestContext,
} from './helpers.ts';
import { expectError, snapshotDb } from './http/support.ts';

/**
 * The shared security matrix every key route runs (after unkey's `runCommonRouteTests`): missing, malformed,
 * unknown, wrong-secret, type-swapped, revoked, expired and disabled keys are 401 INVALID_API_KEY; a key
 * without the route's scope is 403 INSUFFICIENT_SCOPE; a key of another workspace never sees this one's
 * records; a key whose restriction leaves out what the request names is 403 FORBIDDEN (routes that name a
 * restricted thing). None of these requests writes anything.
 */

/** What the matrix builds in its own workspace, for routes to address. */
export interface MatrixWorld {
  home: Fixture;
  /** A public player of the home workspace with one statistic in its active season. */
  playerUuid: string;
  statKey: string;
  /** A second enabled server of the home workspace (lobby.matrix.example:25566), to restrict keys to. */
  lobbyServerId: string;
}

/** Restrictions of a key (as the key create body names them). */
export interface KeyRestrictions {
  player_restrictions?: string[];
  server_restrictions?: string[];
  season_restrictions?: string[];
}

export interface KeyRoute {
  method: 'GET' | 'POST';
  /** The scope the route requires. */
  scope: Scope;
  url(w: MatrixWorld): string;
  /** A body that a correct key gets a 200 for (POST routes). */
  body?(w: MatrixWorld): unknown;
  /** Restrictions that leave out what the request names: a key with the route's scope and them gets 403 FORBIDDEN. */
  outsideRestriction?(w: MatrixWorld): KeyRestrictions;
}

const PLAYER = '6a0f1e2d-3c4b-4a59-8877-665544332211';
const STAT = 'minecraft.custom:minecraft.jump';

interface Tokens {
  good: string;
  revoked: string;
  expired: string;
  disabled: string;
  wrongScope: string;
  otherWorkspace: string;
  /** A key with the route's scope whose restriction leaves out what the request names (routes that name one). */
  restricted: string | null;
  /** id and secret of a real key, to forge variants. */
  realId: string;
  realSecret: string;
  realType: string;
}

function splitToken(token: string): { type: string; id: string; secret: string } {
  const [, type, id] = token.split('_', 3) as [string, string, string];
  const secret = token.slice(`stb_${type}_${id}_`.length);
  return { type, id, secret };
}

/** Registers the matrix for one route. `getCtx` returns the test file's context (created in its beforeAll). */
export function runSecurityMatrix(label: string, getCtx: () => TestContext, route: KeyRoute): void {
  describe(`${label}: security matrix`, () => {
    let ctx: TestContext;
    let world: MatrixWorld;
    let t: Tokens;

    const send = (authorization: string | undefined, extra: Record<string, string> = {}) => {
      const headers: Record<string, string> = { ...extra };
      if (authorization !== undefined) headers.authorization = authorization;
      // Over a real connection to the app as it ships, so that cached reads meet the fast path in front of Fastify.
      if (route.method === 'POST') {
        headers['content-type'] = 'application/json';
        return ctx.http({
          method: 'POST',
          url: route.url(world),
          headers,
          payload: JSON.stringify(route.body?.(world) ?? {}),
        });
      }
      return ctx.http({ method: 'GET', url: route.url(world), headers });
    };

    /** Sends, expects an error with `status`/`code`, and checks the database did not change. */
    const expectRefused = async (
      authorization: string | undefined,
      status: number,
      code: string,
    ): Promise<HttpAnswer> => {
      // A read answered for a good key first: its answer is cached, so the refused request below reaches the
      // fast path with everything it could serve at hand.
      if (route.method === 'GET') expect((await send(`Bearer ${t.good}`)).statusCode).toBe(200);
      const before = await snapshotDb(ctx.db);
      const res = await send(authorization);
      expectError(res, status, code);
      if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(await snapshotDb(ctx.db)).toEqual(before);
      return res;
    };

    beforeAll(async () => {
      ctx = getCtx();
      const s = ctx.services;
      const home = await seedWorkspace(s, 'Matrix home');
      const ws = home.workspaceId;
      // `ingest:server` is held only by integration keys of exactly one server (the home workspace's own).
      const serverKey = route.scope === 'ingest:server';
      const type = route.scope === 'ingest:write' ? 'client' : serverKey ? 'integration' : 'website';
      const make = async (over: { scopes?: string[]; expires_at?: string } & KeyRestrictions = {}) =>
        s.keys.create(ACTOR, ws, {
          ...(serverKey && !over.scopes ? { server_restrictions: [home.serverId] } : {}),
          ...over,
          name: 'matrix',
          type: over.scopes ? 'integration' : type,
          scopes: over.scopes ?? [route.scope],
        });
      const good = await make();
      const revoked = await make();
      await s.keys.revoke(ACTOR, ws, revoked.data.id);
      const expired = await make({ expires_at: new Date(Date.now() - 60_000).toISOString() });
      const disabled = await make();
      await disableKey(ctx, disabled.data.id);
      const wrongScope = await make({ scopes: SCOPES.filter((x) => x !== route.scope && x !== 'ingest:server') });
      const lobby = await s.servers.create(ACTOR, ws, { name: 'Lobby', hostname: 'lobby.matrix.example', port: 25566 });

      // Another workspace with the same scope, its own season (same slug) and a server under another name.
      const other = await s.workspaces.create(ACTOR, { name: 'Matrix other' });
      const otherServer = await s.servers.create(ACTOR, other.id, {
        name: 'Other',
        hostname: 'other.example.com',
        port: 25565,
        // A server key of the other workspace uploads to its own server: disabled, it is refused and writes nothing.
        enabled: !serverKey,
      });
      await s.seasons.create(ACTOR, other.id, { name: 'Season 1', slug: home.seasonSlug, active: true });
      const otherKey = await s.keys.create(ACTOR, other.id, {
        name: 'other',
        type,
        scopes: [route.scope],
        ...(serverKey ? { server_restrictions: [otherServer.id] } : {}),
      });

      // One public player with one statistic in the home workspace.
      await s.ingest.ingest(
        (await s.verifier.verify(home.keys.client!))!,
        modBatch({ uuid: PLAYER, username: 'MatrixPlayer', stats: [{ key: STAT, value: 7 }] }) as never,
      );
      await s.flush();

      world = { home, playerUuid: PLAYER, statKey: STAT, lobbyServerId: lobby.id };
      const restricted = route.outsideRestriction ? await make(route.outsideRestriction(world)) : null;
      const real = splitToken(good.secret);
      t = {
        good: good.secret,
        revoked: revoked.secret,
        expired: expired.secret,
        disabled: disabled.secret,
        wrongScope: wrongScope.secret,
        otherWorkspace: otherKey.secret,
        restricted: restricted?.secret ?? null,
        realId: real.id,
        realSecret: real.secret,
        realType: real.type,
      };
    });

    it('answers a correct key with 200 (the control case)', async () => {
      const res = await send(`Bearer ${t.good}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(typeof res.headers['x-request-id']).toBe('string');
    });

    it('returns 401 INVALID_API_KEY without an Authorization header', async () => {
      await expectRefused(undefined, 401, 'INVALID_API_KEY');
    });

    const malformedHeaders: [string, () => string][] = [
      ['Basic credentials', () => 'Basic dXNlcjpwYXNz'],
      ['"Basic x"', () => 'Basic x'],
      ['"Bearer" without a token', () => 'Bearer'],
      ['"Bearer " with a blank token', () => 'Bearer    '],
      ['garbage', () => 'garbage'],
      ['the bare token without "Bearer"', () => t.good],
      ['two kilobytes of junk', () => `Bearer ${'x'.repeat(2048)}`],
      ['two kilobytes of junk without a scheme', () => 'J'.repeat(2048)],
      ['a second token after the first', () => `Bearer ${t.good} ${t.good}`],
      ['non-ASCII bytes', () => 'Bearer stb_client_ÿþý_ñ'],
      ['non-ASCII junk', () => `Bearer ${Buffer.from('ключ-🔑', 'utf8').toString('latin1')}`],
    ];
    for (const [name, header] of malformedHeaders) {
      it(`returns 401 INVALID_API_KEY for a malformed Authorization header: ${name}`, async () => {
        await expectRefused(header(), 401, 'INVALID_API_KEY');
      });
    }

    const malformedTokens: [string, () => string][] = [
      ['no secret', () => `stb_${t.realType}_${t.realId}`],
      ['an empty secret', () => `stb_${t.realType}_${t.realId}_`],
      ['a short secret', () => `stb_${t.realType}_${t.realId}_abc`],
      ['an id that is no UUID', () => `stb_${t.realType}_not-a-uuid_${t.realSecret}`],
      ['another prefix', () => `mst_${t.realType}_${t.realId}_${t.realSecret}`],
      ['an unknown type', () => `stb_admin_${t.realId}_${t.realSecret}`],
      ['the bootstrap type', () => `stb_bootstrap_${t.realId}_${t.realSecret}`],
      ['an upper-case prefix', () => `STB_${t.realType}_${t.realId}_${t.realSecret}`],
      ['characters outside base64url in the secret', () => `stb_${t.realType}_${t.realId}_${t.realSecret}!!`],
    ];
    for (const [name, token] of malformedTokens) {
      it(`returns 401 INVALID_API_KEY for a malformed token: ${name}`, async () => {
        await expectRefused(`Bearer ${token()}`, 401, 'INVALID_API_KEY');
      });
    }

    it('returns 401 INVALID_API_KEY for an unknown key id with a well-formed secret', async () => {
      await expectRefused(
        `Bearer stb_${t.realType}_00000000-0000-4000-8000-000000000001_${t.realSecret}`,
        401,
        'INVALID_API_KEY',
      );
    });

    it('returns 401 INVALID_API_KEY for the wrong secret of a real key id', async () => {
      const wrong = `${t.realSecret.slice(0, -1)}${t.realSecret.endsWith('A') ? 'B' : 'A'}`;
      await expectRefused(`Bearer stb_${t.realType}_${t.realId}_${wrong}`, 401, 'INVALID_API_KEY');
    });

    it("returns 401 INVALID_API_KEY when the token's type differs from the key's type", async () => {
      for (const type of ['client', 'website', 'integration'].filter((x) => x !== t.realType)) {
        await expectRefused(`Bearer stb_${type}_${t.realId}_${t.realSecret}`, 401, 'INVALID_API_KEY');
      }
    });

    it('returns 401 INVALID_API_KEY for a revoked key', async () => {
      await expectRefused(`Bearer ${t.revoked}`, 401, 'INVALID_API_KEY');
    });

    it('returns 401 INVALID_API_KEY for an expired key', async () => {
      await expectRefused(`Bearer ${t.expired}`, 401, 'INVALID_API_KEY');
    });

    it('returns 401 INVALID_API_KEY for a disabled key', async () => {
      await expectRefused(`Bearer ${t.disabled}`, 401, 'INVALID_API_KEY');
    });

    it(`returns 403 INSUFFICIENT_SCOPE for a key without ${route.scope}`, async () => {
      await expectRefused(`Bearer ${t.wrongScope}`, 403, 'INSUFFICIENT_SCOPE');
    });

    if (route.outsideRestriction) {
      it('returns 403 FORBIDDEN for a key whose restriction leaves out what the request names', async () => {
        await expectRefused(`Bearer ${t.restricted!}`, 403, 'FORBIDDEN');
      });
    }

    it("never shows another workspace's records to its key (404 or no data)", async () => {
      const before = await snapshotDb(ctx.db);
      const res = await send(`Bearer ${t.otherWorkspace}`);
      if (res.statusCode !== 200) expectError(res, 404, 'NOT_FOUND');
      // What the request itself named may be echoed (e.g. "Season '<id>' not found"); nothing else may appear.
      const sent = `${route.url(world)} ${JSON.stringify(route.body?.(world) ?? null)}`;
      const homeOnly = [world.playerUuid, world.home.seasonId, world.home.serverId, world.home.workspaceId];
      for (const secret of homeOnly.filter((x) => !sent.includes(x))) expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain('MatrixPlayer');
      expect(await snapshotDb(ctx.db)).toEqual(before);
    });

    it('accepts the scheme name in any case ("bearer")', async () => {
      const res = await send(`bearer ${t.good}`);
      expect(res.statusCode, res.body).toBe(200);
    });
  });
}
