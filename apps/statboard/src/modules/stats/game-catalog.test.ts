import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { categoryName, compareCategories, gameCatalog } from './game-catalog.ts';

// The catalog is generated from a download (`npm run stat-catalog -w statboard`); these checks need none.
const GENERATOR = fileURLToPath(new URL('../../../scripts/stat-catalog.mjs', import.meta.url));
const REGENERATE = 'run `npm run stat-catalog -w statboard` and commit src/modules/stats/game-catalog.json';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the game catalog', () => {
  const c = gameCatalog();

  it('was written by the generator as it is now (stale otherwise)', () => {
    expect(c.generator_sha256, REGENERATE).toBe(sha256(readFileSync(GENERATOR, 'utf8')));
  });

  it('holds exactly what the generator wrote (no hand edits)', () => {
    const { source: _s, generator_sha256: _g, content_sha256, ...content } = c;
    expect(content_sha256, REGENERATE).toBe(sha256(JSON.stringify(content)));
  });

  it('names the pinned package and game version the generator pins', () => {
    const script = readFileSync(GENERATOR, 'utf8');
    expect(script).toContain(`const PACKAGE_VERSION = '${c.source.version}';`);
    expect(script).toContain(`const GAME_VERSION = '${c.source.game_version}';`);
    expect(c.source).toEqual({ package: 'minecraft-data', version: '3.117.0', edition: 'pc', game_version: '26.1' });
  });

  it("covers the game's custom statistics, and every block, item and entity of the families", () => {
    expect(Object.keys(c.custom).length).toBeGreaterThanOrEqual(75);
    expect(c.custom).toMatchObject({
      play_time: 'Time Played',
      walk_one_cm: 'Distance Walked',
      damage_taken: 'Damage Taken',
      deaths: 'Number of Deaths',
      jump: 'Jumps',
    });
    expect(Object.keys(c.blocks).length).toBeGreaterThan(1000);
    expect(Object.keys(c.items).length).toBeGreaterThan(1400);
    expect(Object.keys(c.entities).length).toBeGreaterThan(140);
    expect(Object.keys(c.families).sort()).toEqual(
      ['broken', 'crafted', 'dropped', 'killed', 'killed_by', 'mined', 'picked_up', 'used'].sort(),
    );
    expect(c.groups).toEqual({ general: 'General', items: 'Items', mobs: 'Mobs' });
  });

  it('gives no two things of one list the same name (21 music discs are not all "Music Disc")', () => {
    for (const list of ['blocks', 'items', 'entities'] as const) {
      const names = Object.values(c[list]);
      expect(new Set(names).size, list).toBe(names.length);
    }
    expect(c.items.music_disc_cat).toBe('Music Disc (C418 - cat)');
    expect(c.items.sentry_armor_trim_smithing_template).toBe('Sentry Armor Trim');
  });
});

describe('categories for people', () => {
  it("names the game's categories as its statistics screen does, in its order, and leaves others as they are", () => {
    const game = ['custom', 'mined', 'crafted', 'used', 'broken', 'picked_up', 'dropped', 'killed', 'killed_by'].map(
      (t) => `minecraft.${t}`,
    );
    expect(game.map(categoryName)).toEqual([
      'General',
      'Mined',
      'Crafted',
      'Used',
      'Broken',
      'Picked Up',
      'Dropped',
      'Kills',
      'Killed by',
    ]);
    expect([...game].reverse().sort(compareCategories)).toEqual(game);
    expect(categoryName('myplugin')).toBe('myplugin');
    expect(categoryName('minecraft.unknown_family')).toBe('minecraft.unknown_family');
    expect(compareCategories('myplugin', 'minecraft.killed_by')).toBeGreaterThan(0);
  });
});
