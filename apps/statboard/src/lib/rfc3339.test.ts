import { describe, expect, it } from 'vitest';
import { isRfc3339, parseRfc3339 } from './rfc3339.ts';

describe('RFC 3339 date-times', () => {
  it.each([
    ['2026-10-06T12:00:00.123456Z', Date.UTC(2026, 9, 6, 12, 0, 0, 123)],
    ['2026-10-06T12:00:00Z', Date.UTC(2026, 9, 6, 12)],
    ['2026-10-06T12:00:00+00:00', Date.UTC(2026, 9, 6, 12)],
    ['2026-10-06T14:30:00+02:30', Date.UTC(2026, 9, 6, 12)],
    ['2026-10-06T09:00:00.5-03:00', Date.UTC(2026, 9, 6, 12, 0, 0, 500)],
    ['2026-10-06t12:00:00z', Date.UTC(2026, 9, 6, 12)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
  ])('parses %s', (text, expected) => {
    expect(parseRfc3339(text)).toBe(expected);
  });

  it('keeps two-digit years as they are', () => {
    expect(new Date(parseRfc3339('0050-01-01T00:00:00Z')).toISOString()).toBe('0050-01-01T00:00:00.000Z');
  });

  it.each([
    '2026-10-06',
    '2026-10-06T12:00:00',
    '2026-10-06T12:00Z',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-10-06T24:00:00Z',
    '2026-10-06T12:00:00+25:00',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:30:00+01:00',
    ' 2026-10-06T12:00:00Z',
    '1759752000',
  ])('rejects %s', (text) => {
    expect(isRfc3339(text)).toBe(false);
  });
});
