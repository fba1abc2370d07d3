import { describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS, parseConfig } from './config.ts';
import { YamlSyntaxError } from './yaml.ts';

const load = (text: string) => parseConfig(text, { baseDir: '/srv/mc/plugins/HMTAPI' });

describe('config', () => {
  it('applies the defaults of the original plugin', () => {
    const { config, warnings } = load('endpoints: {}\n');
    expect(config).toMatchObject({
      bindAddress: '0.0.0.0',
      port: 4567,
      requestTimeoutSeconds: 5,
      timeZone: 'UTC',
      dateFormat: 'yyyy/MM/dd HH:mm:ss',
      neverSeenValue: 'never',
      serverDir: '/srv/mc/plugins/HMTAPI',
      world: null,
      servertap: null,
    });
    expect(warnings).toEqual([]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads YAML 1.1 booleans like SnakeYAML (yes/on are booleans, y stays text)', () => {
    const { config } = load(
      'endpoints:\n  a:\n    require_player: yes\n    object:\n      b: on\n      c: y\n      d: 2024-01-01\n',
    );
    const a = config.endpoints?.get('a');
    expect(a?.requirePlayer).toBe(true);
    expect(a?.object?.entries.map((e) => e.template.source)).toEqual(['true', 'y', '2024-01-01']);
  });

  it('turns values into text: numbers, booleans, lists, null', () => {
    const { config } = load(
      'endpoints:\n  a:\n    object:\n      n: 42\n      f: 1.0\n      b: false\n      l: [a, b]\n      z:\n',
    );
    expect(config.endpoints?.get('a')?.object?.entries.map((e) => e.template.source)).toEqual([
      '42',
      '1.0',
      'false',
      '[a, b]',
      '',
    ]);
  });

  it('warns naming each invalid setting and falls back to its default', () => {
    const { config, warnings } = load(
      'bind_address: [x]\nport: 70000\nrequest_timeout_seconds: 0\ntime_zone: Nowhere/Land\ndate_format: "yyyy {"\nendpoints: {}\n',
    );
    expect(config.port).toBe(CONFIG_DEFAULTS.port);
    expect(config.bindAddress).toBe('0.0.0.0');
    expect(config.requestTimeoutSeconds).toBe(5);
    expect(config.timeZone).toBe('UTC');
    expect(config.dateFormat).toBe('yyyy/MM/dd HH:mm:ss');
    for (const setting of ['bind_address', 'port', 'request_timeout_seconds', 'time_zone', 'date_format'])
      expect(
        warnings.some((w) => w.startsWith(`${setting}:`)),
        setting,
      ).toBe(true);
  });

  it('keeps an explicit empty never_seen_value', () => {
    expect(load("never_seen_value: ''\n").config.neverSeenValue).toBe('');
  });

  it('skips invalid endpoint names with a warning, keeping the others', () => {
    const { config, warnings } = load('endpoints:\n  ok:\n    object: {a: b}\n  "no way":\n    object: {}\n');
    expect([...(config.endpoints?.keys() ?? [])]).toEqual(['ok']);
    expect(warnings.some((w) => w.startsWith('endpoints.no way:'))).toBe(true);
  });

  it('distinguishes an empty object ({} with a warning) from a missing one (error object)', () => {
    const { config, warnings } = load('endpoints:\n  e:\n    object: {}\n  m:\n    require_player: true\n');
    expect(config.endpoints?.get('e')?.object?.entries).toEqual([]);
    expect(config.endpoints?.get('m')?.object).toBeNull();
    expect(warnings.some((w) => w.startsWith('endpoints.e.object:'))).toBe(true);
    expect(warnings.some((w) => w.startsWith('endpoints.m.object:'))).toBe(true);
  });

  it('has no endpoints map when the section is missing', () => {
    const { config, warnings } = load('port: 1234\n');
    expect(config.endpoints).toBeNull();
    expect(warnings.some((w) => w.startsWith('endpoints:'))).toBe(true);
  });

  it('keeps object keys in configured order, including numeric keys', () => {
    const { config } = load('endpoints:\n  a:\n    object:\n      "2": x\n      1: y\n      b: z\n');
    expect(config.endpoints?.get('a')?.object?.entries.map((e) => e.key)).toEqual(['2', '1', 'b']);
  });

  it('reads the sidecar keys', () => {
    const { config } = load(
      'server_dir: ../..\nworld: survival\nservertap:\n  url: http://127.0.0.1:4567/\n  key: abc\n',
    );
    expect(config.serverDir).toBe('/srv/mc');
    expect(config.world).toBe('survival');
    expect(config.servertap).toEqual({ url: 'http://127.0.0.1:4567', key: 'abc' });
    const bad = load('servertap:\n  url: ftp://x\n');
    expect(bad.config.servertap).toBeNull();
    expect(bad.warnings.some((w) => w.startsWith('servertap.url:'))).toBe(true);
  });

  it('throws a YamlSyntaxError with the line for text that does not parse', () => {
    try {
      load('port: 1\nendpoints:\n  a: [\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(YamlSyntaxError);
      expect((error as YamlSyntaxError).line).toBeGreaterThanOrEqual(3);
    }
  });
});
