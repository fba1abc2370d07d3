import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '#src/db/migrate.ts';
import { openPglite } from '#src/db/pglite.ts';
import type { Db } from '#src/db/types.ts';
import { createTestDb, DB_KIND, type TestDb } from '../helpers.ts';

let t: TestDb;
let db: Db;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  await db.exec('CREATE TABLE iso_probe (id serial PRIMARY KEY, note text NOT NULL)');
});
afterAll(() => t.drop());

describe(`transactions (${DB_KIND})`, () => {
  it('never lets a concurrent write join a transaction that is rolled back', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const failing = db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO iso_probe (note) VALUES ('inside')");
        await gate; // the concurrent write below is issued while this transaction is open
        throw new Error('roll back');
      })
      .catch((e: Error) => e.message);
    const outside = db.query("INSERT INTO iso_probe (note) VALUES ('outside')");
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await failing).toBe('roll back');
    await outside;
    const rows = await db.query<{ note: string }>('SELECT note FROM iso_probe ORDER BY id');
    expect(rows.map((r) => r.note)).toEqual(['outside']);
  });

  it('commits a transaction as a whole and returns its value', async () => {
    const n = await db.transaction(async (tx) => {
      await tx.query("INSERT INTO iso_probe (note) VALUES ('a')");
      await tx.query("INSERT INTO iso_probe (note) VALUES ('b')");
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM iso_probe'))[0]!.n;
    });
    expect(n).toBe(3);
  });

  it('rolls back everything when a statement in the middle fails', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO iso_probe (note) VALUES ('c')");
        await tx.query('INSERT INTO iso_probe (note) VALUES (NULL)');
      }),
    ).rejects.toThrow();
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM iso_probe'))[0]!.n).toBe(3);
  });

  it('runs many concurrent transactions without losing a write', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          await tx.query('INSERT INTO iso_probe (note) VALUES ($1)', [`t${i}`]);
        }),
      ),
    );
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM iso_probe WHERE note LIKE 't%'"))[0]!.n).toBe(
      20,
    );
  });
});

describe(`planner settings (${DB_KIND})`, () => {
  it('runs every statement without Memoize (and, on PostgreSQL, without JIT)', async () => {
    const [memoize] = await db.query<{ enable_memoize: string }>('SHOW enable_memoize');
    expect(memoize!.enable_memoize).toBe('off');
    if (DB_KIND === 'postgresql') {
      const [jit] = await db.query<{ jit: string }>('SHOW jit');
      expect(jit!.jit).toBe('off');
    }
  });
});

describe(`migrations (${DB_KIND})`, () => {
  it('are recorded and not applied twice, also when several run at once', async () => {
    const results = await Promise.all([migrate(db), migrate(db), migrate(db)]);
    expect(results.every((r) => r.applied.length === 0)).toBe(true);
    const names = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(names[0]?.name).toBe('0001_core.sql');
  });
});

describe('PGlite', () => {
  it('migrates a fresh database when several starters race', async () => {
    const fresh = await openPglite(null);
    try {
      const results = await Promise.all([migrate(fresh), migrate(fresh)]);
      const applied = results.flatMap((r) => r.applied);
      expect(new Set(applied).size).toBe(applied.length);
      expect(applied.length).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
