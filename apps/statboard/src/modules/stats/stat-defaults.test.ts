import { describe, expect, it } from 'vitest';
import { gameCatalog } from './game-catalog.ts';
import { defaultMaxPerHour, defaultStatName, defaultStatUnit, titleCase } from './stat-defaults.ts';

describe('defaultStatName', () => {
  it("names custom statistics by the game's own English names", () => {
    expect(defaultStatName('minecraft.custom:minecraft.play_time')).toBe('Time Played');
    // The id worlds before 1.17 report for the same statistic (in ticks, despite its name).
    expect(defaultStatName('minecraft.custom:minecraft.play_one_minute')).toBe('Time Played');
    expect(defaultStatUnit('minecraft.custom:minecraft.play_one_minute')).toBe('ticks');
    expect(defaultStatName('minecraft.custom:minecraft.deaths')).toBe('Number of Deaths');
    expect(defaultStatName('minecraft.custom:minecraft.aviate_one_cm')).toBe('Distance by Elytra');
    expect(defaultStatName('minecraft.custom:minecraft.damage_dealt')).toBe('Damage Dealt');
  });

  it('names each family with the name of the block, item or entity it counts', () => {
    expect(defaultStatName('minecraft.mined:minecraft.stone')).toBe('Stone Mined');
    expect(defaultStatName('minecraft.mined:minecraft.wheat')).toBe('Wheat Crops Mined');
    expect(defaultStatName('minecraft.crafted:minecraft.diamond_pickaxe')).toBe('Diamond Pickaxe Crafted');
    expect(defaultStatName('minecraft.crafted:minecraft.wheat')).toBe('Wheat Crafted');
    expect(defaultStatName('minecraft.used:minecraft.bow')).toBe('Bow Used');
    expect(defaultStatName('minecraft.broken:minecraft.iron_sword')).toBe('Iron Sword Broken');
    expect(defaultStatName('minecraft.picked_up:minecraft.dirt')).toBe('Dirt Picked Up');
    expect(defaultStatName('minecraft.dropped:minecraft.cobblestone')).toBe('Cobblestone Dropped');
    expect(defaultStatName('minecraft.killed:minecraft.zombie')).toBe('Zombie Kills');
    expect(defaultStatName('minecraft.killed_by:minecraft.zombie')).toBe('Killed by Zombie');
    expect(defaultStatName('minecraft.killed_by:minecraft.ender_dragon')).toBe('Killed by Ender Dragon');
  });

  it('names every statistic of the pinned game version without falling back', () => {
    const c = gameCatalog();
    for (const id of Object.keys(c.custom)) {
      expect(defaultStatName(`minecraft.custom:minecraft.${id}`)).toBe(c.custom[id]);
    }
    for (const [type, family] of Object.entries(c.families)) {
      for (const [id, name] of Object.entries(c[family.of])) {
        expect(defaultStatName(`minecraft.${type}:minecraft.${id}`)).toBe(family.name.replace('%s', name));
      }
    }
  });

  it("title-cases what the pinned version does not know (a newer game's, a mod's)", () => {
    expect(defaultStatName('minecraft.custom:minecraft.ride_camel_one_cm')).toBe('Ride Camel One Cm');
    expect(defaultStatName('minecraft.mined:minecraft.future_ore')).toBe('Future Ore Mined');
    expect(defaultStatName('minecraft.mined:create.cogwheel')).toBe('Cogwheel Mined');
    expect(defaultStatName('minecraft.custom:mymod.stone')).toBe('Stone');
    expect(defaultStatName('minecraft.sculpted:minecraft.stone')).toBe('Sculpted: Stone');
    expect(titleCase('walk_under_water-one/cm')).toBe('Walk Under Water One Cm');
  });

  it("keeps the key as the name for other namespaces, and for keys not of the game's shape", () => {
    expect(defaultStatName('mymod.custom:mymod.souls')).toBe('mymod.custom:mymod.souls');
    expect(defaultStatName('depth.custom:depth.score')).toBe('depth.custom:depth.score');
    expect(defaultStatName('minecraft.custom:minecraft.a:b')).toBe('minecraft.custom:minecraft.a:b');
    expect(defaultStatName('minecraft.custom:play_time')).toBe('minecraft.custom:play_time');
  });
});

describe('defaultStatUnit', () => {
  it('measures the time statistics in ticks (the game has five)', () => {
    const c = gameCatalog();
    const times = Object.keys(c.custom).filter((id) => defaultStatUnit(`minecraft.custom:minecraft.${id}`) === 'ticks');
    expect(times.sort()).toEqual([
      'play_time',
      'sneak_time',
      'time_since_death',
      'time_since_rest',
      'total_world_time',
    ]);
  });

  it('measures distances in centimetres and damage in tenths of a health point', () => {
    const c = gameCatalog();
    for (const id of Object.keys(c.custom).filter((i) => i.endsWith('_one_cm'))) {
      expect(defaultStatUnit(`minecraft.custom:minecraft.${id}`), id).toBe('cm');
    }
    expect(defaultStatUnit('minecraft.custom:minecraft.happy_ghast_one_cm')).toBe('cm');
    const damage = Object.keys(c.custom).filter(
      (id) => defaultStatUnit(`minecraft.custom:minecraft.${id}`) === 'damage',
    );
    expect(damage.sort()).toEqual([
      'damage_absorbed',
      'damage_blocked_by_shield',
      'damage_dealt',
      'damage_dealt_absorbed',
      'damage_dealt_resisted',
      'damage_resisted',
      'damage_taken',
    ]);
  });

  it('counts everything else: other custom statistics, the families, other namespaces', () => {
    expect(defaultStatUnit('minecraft.custom:minecraft.deaths')).toBe('count');
    expect(defaultStatUnit('minecraft.custom:minecraft.jump')).toBe('count');
    expect(defaultStatUnit('minecraft.mined:minecraft.stone')).toBe('count');
    expect(defaultStatUnit('minecraft.killed:minecraft.zombie')).toBe('count');
    expect(defaultStatUnit('mymod.custom:mymod.walk_one_cm')).toBe('count');
  });

  it('follows the same rules for custom statistics of a newer game version', () => {
    expect(defaultStatUnit('minecraft.custom:minecraft.ride_camel_one_cm')).toBe('cm');
    expect(defaultStatUnit('minecraft.custom:minecraft.damage_reflected')).toBe('damage');
    expect(defaultStatUnit('minecraft.custom:minecraft.time_in_nether')).toBe('ticks');
    expect(defaultStatUnit('minecraft.custom:minecraft.timer_resets')).toBe('count');
  });
});

describe('defaultMaxPerHour', () => {
  it('allows an hour of ticks for times and counts, 200 km for distances, no limit for other namespaces', () => {
    expect(defaultMaxPerHour('minecraft.custom:minecraft.play_time')).toBe(72_000);
    expect(defaultMaxPerHour('minecraft.custom:minecraft.total_world_time')).toBe(72_000);
    expect(defaultMaxPerHour('minecraft.custom:minecraft.sneak_time')).toBe(72_000);
    expect(defaultMaxPerHour('minecraft.custom:minecraft.time_since_death')).toBe(72_000);
    expect(defaultMaxPerHour('minecraft.custom:minecraft.walk_one_cm')).toBe(20_000_000);
    expect(defaultMaxPerHour('minecraft.custom:minecraft.aviate_one_cm')).toBe(20_000_000);
    expect(defaultMaxPerHour('minecraft.mined:minecraft.stone')).toBe(72_000);
    expect(defaultMaxPerHour('minecraft.killed:minecraft.zombie')).toBe(72_000);
    expect(defaultMaxPerHour('mymod.custom:points')).toBeNull();
    expect(defaultMaxPerHour('server:kills')).toBeNull();
  });
});
