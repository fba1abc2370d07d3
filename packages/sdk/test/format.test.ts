import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatStatValue } from '../src/format.ts';

const ticks = (h: number, min = 0, s = 0) => ((h * 60 + min) * 60 + s) * 20;

describe('formatStatValue: ticks', () => {
  it('writes the two largest units of a time, leaving out a zero second one', () => {
    expect(formatStatValue(144_000, 'ticks')).toBe('2 h');
    expect(formatStatValue(ticks(12, 5), 'ticks')).toBe('12 h 5 min');
    expect(formatStatValue(ticks(0, 3, 20), 'ticks')).toBe('3 min 20 s');
    expect(formatStatValue(ticks(0, 0, 45), 'ticks')).toBe('45 s');
    expect(formatStatValue(ticks(50, 0), 'ticks')).toBe('2 d 2 h');
    expect(formatStatValue(0, 'ticks')).toBe('0 s');
    expect(formatStatValue(10, 'ticks')).toBe('0.5 s');
  });

  it('rounds to the smaller unit, and moves up when the rounding reaches the next unit', () => {
    expect(formatStatValue(ticks(12, 5, 40), 'ticks')).toBe('12 h 6 min');
    expect(formatStatValue(ticks(0, 0, 59.8), 'ticks')).toBe('1 min');
    expect(formatStatValue(ticks(0, 59, 59.8), 'ticks')).toBe('1 h');
    expect(formatStatValue(ticks(23, 59, 50), 'ticks')).toBe('1 d');
  });

  it('spells the units out in the long form, singular for one', () => {
    expect(formatStatValue(ticks(12, 5), 'ticks', { style: 'long' })).toBe('12 hours 5 minutes');
    expect(formatStatValue(ticks(1, 1), 'ticks', { style: 'long' })).toBe('1 hour 1 minute');
    expect(formatStatValue(20, 'ticks', { style: 'long' })).toBe('1 second');
  });

  it('writes one unit with a decimal on axes', () => {
    expect(formatStatValue(ticks(12, 30), 'ticks', { style: 'axis' })).toBe('12.5 h');
    expect(formatStatValue(ticks(0, 30), 'ticks', { style: 'axis' })).toBe('30 min');
    expect(formatStatValue(ticks(72), 'ticks', { style: 'axis' })).toBe('3 d');
  });
});

describe('formatStatValue: cm', () => {
  it('writes centimeters, meters or kilometers', () => {
    expect(formatStatValue(35, 'cm')).toBe('35 cm');
    expect(formatStatValue(12_000, 'cm')).toBe('120 m');
    expect(formatStatValue(350, 'cm')).toBe('3.5 m');
    expect(formatStatValue(340_000, 'cm')).toBe('3.4 km');
    expect(formatStatValue(123_456_789, 'cm')).toBe('1,235 km');
    expect(formatStatValue(99_960, 'cm')).toBe('1 km');
    expect(formatStatValue(340_000, 'cm', { style: 'long' })).toBe('3.4 kilometers');
    expect(formatStatValue(100, 'cm', { style: 'long' })).toBe('1 meter');
  });
});

describe('formatStatValue: damage', () => {
  it('writes hearts (20 raw points a heart), and "hearts" in the long form', () => {
    expect(formatStatValue(150, 'damage')).toBe('7.5 ♥');
    expect(formatStatValue(150, 'damage', { style: 'long' })).toBe('7.5 hearts');
    expect(formatStatValue(20, 'damage', { style: 'long' })).toBe('1 heart');
    expect(formatStatValue(15, 'damage')).toBe('0.8 ♥');
    expect(formatStatValue(2_000_000, 'damage')).toBe('100,000 ♥');
    expect(formatStatValue(2_400_000, 'damage', { style: 'axis' })).toBe('120K ♥');
  });
});

describe('formatStatValue: count', () => {
  it('groups digits, and is compact on axes', () => {
    expect(formatStatValue(1_234_567, 'count')).toBe('1,234,567');
    expect(formatStatValue(2.345, 'count')).toBe('2.35');
    expect(formatStatValue(1_234_567, 'count', { style: 'axis' })).toBe('1.2M');
    expect(formatStatValue(1_234_567, 'count', { style: 'long' })).toBe('1,234,567');
    expect(formatStatValue(1_234_567, 'count', { locale: 'de-DE' })).toBe('1.234.567');
  });

  it('keeps the sign of a negative value, and writes what is not a number as it is', () => {
    expect(formatStatValue(-1, 'count')).toBe('-1');
    expect(formatStatValue(-144_000, 'ticks')).toBe('-2 h');
    expect(formatStatValue(Number.NaN, 'cm')).toBe('NaN');
  });
});

describe('formatStatValue: text for HTML', () => {
  it('writes times, distances and counts in printable ASCII with nothing to escape in HTML', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e15, max: 1e15 }), fc.double({ noNaN: false })),
        fc.constantFrom('ticks', 'cm', 'count'),
        fc.constantFrom('short', 'long', 'axis'),
        (value, unit, style) => {
          expect(formatStatValue(value, unit, { style })).toMatch(/^[\x20-\x7e]*$/);
          expect(formatStatValue(value, unit, { style })).not.toMatch(/[&<>"']/);
        },
      ),
    );
  });
});
