import { describe, expect, it } from 'vitest';
import { javaDoubleToString, yamlValueToText } from './values.ts';

describe('YAML values as text', () => {
  it('renders like Java toString', () => {
    expect(yamlValueToText(42n)).toBe('42');
    expect(yamlValueToText(true)).toBe('true');
    expect(yamlValueToText(null)).toBe('');
    expect(yamlValueToText(['a', 1n, [true]])).toBe('[a, 1, [true]]');
    expect(yamlValueToText(new Map([['k', 1n]]))).toBe('{k=1}');
    expect(javaDoubleToString(1)).toBe('1.0');
    expect(javaDoubleToString(0.5)).toBe('0.5');
    expect(javaDoubleToString(1e7)).toBe('1.0E7');
    expect(javaDoubleToString(1.5e-5)).toBe('1.5E-5');
    expect(javaDoubleToString(Number.NaN)).toBe('NaN');
  });
});
