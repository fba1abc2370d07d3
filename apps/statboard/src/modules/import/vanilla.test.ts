import { describe, expect, it } from 'vitest';
import { parseUsercache, parseVanillaStats, playerOfFile, statKey } from './vanilla.ts';

describe('vanilla statistics files', () => {
  it("names keys as the mod does: each identifier's ':' becomes '.', joined by ':'", () => {
    expect(statKey('minecraft:custom', 'minecraft:play_time')).toBe('minecraft.custom:minecraft.play_time');
    expect(statKey('minecraft:mined', 'minecraft:stone')).toBe('minecraft.mined:minecraft.stone');
  });

  it('reads a file of Minecraft 1.13 and later', () => {
    const text = JSON.stringify({
      stats: {
        'minecraft:custom': { 'minecraft:play_time': 72000, 'minecraft:jump': 12 },
        'minecraft:mined': { 'minecraft:stone': 640 },
        'minecraft:killed_by': {},
      },
      DataVersion: 3955,
    });
    expect(parseVanillaStats(text)).toEqual({
      ok: true,
      values: [
        { key: 'minecraft.custom:minecraft.play_time', value: 72000 },
        { key: 'minecraft.custom:minecraft.jump', value: 12 },
        { key: 'minecraft.mined:minecraft.stone', value: 640 },
      ],
    });
    expect(parseVanillaStats('{"stats":{}}')).toEqual({ ok: true, values: [] });
  });

  it('skips, with a reason, old flat files, empty, unparseable and ill-formed files', () => {
    const reason = (text: string) => {
      const r = parseVanillaStats(text);
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.reason;
    };
    expect(reason('{"stat.playOneMinute": 1200, "achievement.openInventory": 1}')).toMatch(/before 1\.13/);
    expect(reason('')).toBe('empty file');
    expect(reason('  \n')).toBe('empty file');
    expect(reason('{"stats": {"minecraft:custom": {"minecraft:jump": 1}')).toMatch(/^not JSON/);
    expect(reason('[1,2]')).toMatch(/not a statistics file/);
    expect(reason('{"DataVersion": 3955}')).toMatch(/no "stats"/);
    expect(reason('{"stats": []}')).toMatch(/not an object/);
    expect(reason('{"stats": {"minecraft:custom": 5}}')).toMatch(/not an object/);
    expect(reason('{"stats": {"Not A Category": {}}}')).toMatch(/not a category/);
    expect(reason('{"stats": {"minecraft:custom": {"minecraft:jump": "12"}}}')).toMatch(/not a number/);
    expect(reason('{"stats": {"minecraft:custom": {"minecraft:jump": 1e400}}}')).toMatch(/not a number/);
    expect(reason(`{"stats": {"minecraft:custom": {"minecraft:${'x'.repeat(300)}": 1}}}`)).toMatch(/not a statistic/);
  });

  it('skips a file with a value outside ±(2^53 − 1), as ingest refuses the whole batch, naming the statistic', () => {
    const r = parseVanillaStats('{"stats": {"minecraft:custom": {"minecraft:jump": 3, "minecraft:play_time": 1e300}}}');
    expect(r).toEqual({
      ok: false,
      reason: '"stats.minecraft:custom.minecraft:play_time" is outside ±9007199254740991 (2^53 - 1)',
    });
    expect(parseVanillaStats('{"stats": {"minecraft:custom": {"minecraft:jump": -9007199254740991}}}').ok).toBe(true);
  });

  it('quotes nothing of a file that is not JSON, and quotes a bad key only as 40 printable ASCII characters', () => {
    const notJson = parseVanillaStats('root:x:0:0:root:/root:/bin/bash');
    expect(notJson).toEqual({ ok: false, reason: expect.stringMatching(/^not JSON/) });
    expect(JSON.stringify(notJson)).not.toMatch(/root/);
    const r = parseVanillaStats(
      JSON.stringify({ stats: { 'minecraft:custom': { [`\u001b[2J\u202e${'x'.repeat(100)}`]: 1 } } }),
    );
    expect(r.ok).toBe(false);
    const reason = r.ok ? '' : r.reason;
    expect(reason).toMatch(/^"\\u001b\[2J\\u202ex+"\.\.\. in "minecraft:custom" is not a statistic$/);
    expect(reason).toMatch(/^[\x20-\x7e]*$/);
  });

  it('takes the player from a <uuid>.json name only', () => {
    expect(playerOfFile('3F2B6C1E-8A4D-4E2F-9B1A-2C3D4E5F6A7B.json')).toBe('3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b');
    expect(playerOfFile('Steve.json')).toBeNull();
    expect(playerOfFile('3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b.json.bak')).toBeNull();
    expect(playerOfFile('3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7.json')).toBeNull();
  });

  it("reads usernames from usercache.json, skipping entries that aren't players", () => {
    const names = parseUsercache(
      JSON.stringify([
        { name: 'Steve', uuid: '3F2B6C1E-8A4D-4E2F-9B1A-2C3D4E5F6A7B', expiresOn: '2026-12-01 10:00:00 +0000' },
        { name: '', uuid: '11111111-1111-4111-8111-111111111111' },
        { name: 'x'.repeat(17), uuid: '22222222-2222-4222-8222-222222222222' },
        { uuid: '33333333-3333-4333-8333-333333333333' },
        'junk',
      ]),
    );
    expect([...names]).toEqual([['3f2b6c1e-8a4d-4e2f-9b1a-2c3d4e5f6a7b', 'Steve']]);
    expect(() => parseUsercache('{}')).toThrow(/array/);
  });

  it('ignores usercache.json names that break the rule of player names (as ingest refuses them)', () => {
    const bad = [
      'evil\u202eexe',
      'Ste\u0007ve',
      'a\nb',
      'a\tb',
      'a\u001b[2Jb',
      'zero\u200bwidth',
      'nul\u0000',
      '\u3164',
    ];
    const entries = bad.map((name, i) => ({ name, uuid: `00000000-0000-4000-8000-00000000000${i}` }));
    entries.push({ name: '.Steve', uuid: '00000000-0000-4000-8000-000000000009' });
    expect([...parseUsercache(JSON.stringify(entries))]).toEqual([['00000000-0000-4000-8000-000000000009', '.Steve']]);
  });

  it('refuses a usercache.json that is not JSON without quoting it', () => {
    expect(() => parseUsercache('root:x:0:0:root:/root:/bin/bash')).toThrow(/^not JSON( \(at character \d+\))?$/);
    expect(() => parseUsercache('[{"name": "a\u0000"}]\u0000')).toThrow(/^not JSON/);
  });
});
