import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main as cli, EXIT } from '#src/cli.ts';
import { createTestContext, seedWorkspace, type TestContext } from '../helpers.ts';

/**
 * Generated argument lists against the CLI, on a real database: an ordinary mistake (a missing, unknown or
 * malformed option or value, an unknown command, a missing record) is never an internal error (exit 1,
 * INTERNAL_ERROR); it is a usage error (2), not found (4) or conflict (5), or the command works (0).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await seedWorkspace(ctx.services, 'Property CLI');
});
afterAll(() => ctx?.close());

const COMMANDS = [
  ['workspace', 'create'],
  ['workspace', 'list'],
  ['server', 'create'],
  ['server', 'update'],
  ['server', 'list'],
  ['season', 'create'],
  ['season', 'update'],
  ['season', 'activate'],
  ['season', 'list'],
  ['key', 'create'],
  ['key', 'update'],
  ['key', 'rotate'],
  ['key', 'revoke'],
  ['key', 'list'],
  ['player', 'update'],
  ['stat', 'update'],
  ['stat', 'list'],
  ['bootstrap-token'],
  ['user', 'list'],
  ['user', 'grant'],
  ['user', 'revoke'],
  ['key'],
  ['nope'],
  [],
];
const OPTIONS = [
  'name',
  'slug',
  'workspace',
  'server',
  'hostname',
  'port',
  'display-name',
  'disabled',
  'season',
  'activate',
  'started-at',
  'ended-at',
  'scoring',
  'type',
  'scopes',
  'players',
  'servers',
  'seasons',
  'expires-at',
  'description',
  'key',
  'grace-seconds',
  'player',
  'public',
  'stat',
  'sort-order',
  'ttl-minutes',
  'user',
  'role',
  'nme',
  'x',
];
const VALUES = fc.oneof(
  fc.constantFrom(
    'property-cli',
    'w',
    's1',
    'client',
    'website',
    'integration',
    'ingest:write',
    'stats:read,players:read',
    'mc.example.com',
    '25565',
    '0',
    '-1',
    '70000',
    '1e9',
    'true',
    'false',
    'asc',
    'desc',
    'gains',
    'absolute',
    'none',
    'owner',
    'admin',
    '2026-01-01T00:00:00Z',
    '9999-12-31T23:59:59-23:59',
    'yesterday',
    '00000000-0000-4000-8000-000000000000',
    'a:b',
    '',
    ' ',
    'ünïcödé',
    'x'.repeat(300),
    '--json',
  ),
  fc.string({ maxLength: 12 }),
);
const ARGS = fc
  .tuple(
    fc.constantFrom(...COMMANDS),
    fc.array(fc.tuple(fc.constantFrom(...OPTIONS), VALUES, fc.boolean()), { maxLength: 6 }),
  )
  .map(([command, options]) => [
    ...command,
    ...options.flatMap(([name, value, withValue]) => (withValue ? [`--${name}`, value] : [`--${name}`])),
    '--json',
  ]);

describe('CLI: generated argument lists', () => {
  it('never answers an ordinary mistake with an internal error', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await fc.assert(
        fc.asyncProperty(ARGS, async (argv) => {
          out.mockClear();
          const code = await cli(argv, ctx.services);
          const printed = out.mock.calls.map((c) => String(c[0])).join('');
          expect(
            [EXIT.ok, EXIT.usage, EXIT.notFound, EXIT.conflict],
            `${argv.join(' ')} → ${code} ${printed}`,
          ).toContain(code);
          expect(printed).not.toContain('INTERNAL_ERROR');
        }),
        { numRuns: 400 },
      );
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }, 120_000);
});
