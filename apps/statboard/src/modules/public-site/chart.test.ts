import { describe, expect, it } from 'vitest';
import { chartSummary } from './chart.ts';

const day = (at: number) => new Date(at).toISOString().slice(0, 10);
const hours = (v: number) => `${v} h`;
const at = Date.UTC(2026, 10, 12);

describe('chartSummary', () => {
  it('says there was no change, the one change and its day, or where the value went from and to', () => {
    expect(chartSummary('Time Played', [], hours, day)).toBe('No change of Time Played in the last 30 days.');
    expect(chartSummary('Time Played', [{ at, value: 5 }], hours, day)).toBe(
      'Time Played changed once in the last 30 days: 5 h on 2026-11-12.',
    );
    expect(
      chartSummary(
        'Time Played',
        [
          { at, value: 5 },
          { at: at + 86_400_000, value: 6 },
          { at: at + 2 * 86_400_000, value: 9 },
        ],
        hours,
        day,
      ),
    ).toBe('Time Played went from 5 h to 9 h in the last 30 days.');
  });
});
