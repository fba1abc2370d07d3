import { describe, expect, it } from 'vitest';
import { Availability, isDatabaseUnavailable } from './availability.ts';

function recorder() {
  const lines: { level: string; msg: string; obj: object }[] = [];
  return {
    lines,
    log: {
      warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj }),
      info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj }),
    },
  };
}

describe('isDatabaseUnavailable', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '57P03', message: 'the database system is starting up' }],
    [{ code: '08006', message: 'connection failure' }],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }],
    [new Error('Connection terminated unexpectedly')],
    [new Error('timeout exceeded when trying to connect')],
    [new Error('Query read timeout')],
    [Object.assign(new AggregateError([{ code: 'ECONNREFUSED' }]), { message: '' })],
    [new Error('wrapped', { cause: { code: 'ECONNRESET' } })],
  ])('says yes to %o', (err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }],
    [{ code: '42P01', message: 'relation does not exist' }],
    [new Error('something else')],
    [null],
    ['ECONNREFUSED'],
  ])('says no to %o', (err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('Availability', () => {
  it('does not begin an outage on the failure of a query sent before the last one ended', () => {
    let now = 1_000_000;
    const { lines, log } = recorder();
    const a = new Availability(log, () => now);
    a.failed(new Error('Query read timeout'));
    now += 10;
    const during = a.time();
    now += 10;
    a.succeeded(a.time());
    now += 10;
    // Sent while the database was away, its timeout read after the outage ended: that outage's, not a new one.
    a.failed(new Error('Query read timeout'), during);
    expect(a.isDown).toBe(false);
    a.failed(new Error('Query read timeout'), a.time());
    expect(lines.map((l) => l.msg)).toEqual([
      'database unavailable',
      'database available again',
      'database unavailable',
    ]);
  });

  it('does not end an outage on the answer of a query sent before it began', () => {
    let now = 1_000_000;
    const { lines, log } = recorder();
    const a = new Availability(log, () => now);
    const early = a.time();
    now += 10;
    a.failed(new Error('Query read timeout'));
    now += 10;
    // Its answer arrived before the database stopped and was read late: not a sign the database is back.
    a.succeeded(early);
    expect(a.isDown).toBe(true);
    now += 10;
    a.failed(new Error('Query read timeout'));
    expect(lines.map((l) => l.msg)).toEqual(['database unavailable']);
    const later = a.time();
    now += 10;
    a.succeeded(later);
    expect(a.isDown).toBe(false);
    expect(lines.map((l) => l.msg)).toEqual(['database unavailable', 'database available again']);
  });

  it('logs an outage once when it begins, a reminder at most once a minute, and once when it ends', () => {
    let now = 1_000_000;
    const { lines, log } = recorder();
    const a = new Availability(log, () => now);
    a.succeeded();
    expect(lines).toEqual([]);
    for (let i = 0; i < 500; i++) {
      a.failed({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' });
      now += 100; // 50 s of failures
    }
    expect(a.isDown).toBe(true);
    expect(lines.map((l) => l.msg)).toEqual(['database unavailable']);
    now += 15_000;
    a.failed(new Error('Query read timeout'));
    a.failed(new Error('Query read timeout'));
    expect(lines.map((l) => l.msg)).toEqual(['database unavailable', 'database still unavailable']);
    a.succeeded();
    a.succeeded();
    expect(a.isDown).toBe(false);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      ['warn', 'database unavailable'],
      ['warn', 'database still unavailable'],
      ['info', 'database available again'],
    ]);
    expect(lines[0]!.obj).toEqual({ reason: 'ECONNREFUSED: connect ECONNREFUSED' });
    expect(lines[2]!.obj).toEqual({ down_for_s: 65 });
  });
});
