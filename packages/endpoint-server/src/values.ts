/**
 * Turning YAML values into template text: numbers and booleans become
 * their text, a list `[a, b]`, null an empty string. Text follows Java's `toString`, as the original plugin's.
 * @packageDocumentation
 */

/** Java's `Double.toString`: `1.0`, `0.5`, `1.0E7`, `1.0E-4`, `NaN`, `Infinity`. */
export function javaDoubleToString(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'Infinity';
  if (value === Number.NEGATIVE_INFINITY) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(value);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(value);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${Number(exponent)}`;
}

/** Renders any parsed YAML value as template text. */
export function yamlValueToText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return javaDoubleToString(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(yamlValueToText).join(', ')}]`;
  if (value instanceof Set) return `[${[...value].map(yamlValueToText).join(', ')}]`;
  if (value instanceof Map) {
    const items: string[] = [];
    for (const [k, v] of value) items.push(`${yamlValueToText(k)}=${yamlValueToText(v)}`);
    return `{${items.join(', ')}}`;
  }
  return String(value);
}
