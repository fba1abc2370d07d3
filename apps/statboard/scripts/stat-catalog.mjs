// Writes src/modules/stats/game-catalog.json: the game's own English names of every statistic of the `minecraft`
// namespace (custom statistics; the blocks, items and entities the mined/crafted/used/broken/picked_up/dropped/
// killed/killed_by families count), read from one pinned version of the maintained `minecraft-data` package.
// That package is ~450 MB unpacked (every version of both editions), so it is never a dependency: this script
// downloads it with `npm pack` into a temporary folder, reads the four files of the pinned game version, and writes
// a small catalog that is committed. The catalog records this script's SHA-256: a test fails when the script
// changed and the catalog was not regenerated (or when the catalog was edited by hand).
//
// Run: npm run stat-catalog -w statboard   (needs the npm registry; ~10 s)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'minecraft-data';
const PACKAGE_VERSION = '3.117.0';
/** The tarball's integrity as the registry published it: a different file under the same version is refused. */
const INTEGRITY = 'sha512-glKv0EEmVwKvJwdNAKAal2P7gi/nijU9rEMp8gJmqYYRVswS6hA0q9566lcGHH07Ocmpqw5bMRbARC25pR13gA==';
/** Java edition ("pc"): the latest version 3.117.0 has its own language file for. */
const EDITION = 'pc';
const GAME_VERSION = '26.1';

const SCRIPT = fileURLToPath(import.meta.url);
const OUT = fileURLToPath(new URL('../src/modules/stats/game-catalog.json', import.meta.url));

/**
 * The statistic families of the game (`minecraft.<type>:minecraft.<thing>`), the list of things each counts, and
 * how a name is phrased. The game's own labels for the first six read "Times Mined", "Picked Up", …: the
 * statistic's name is the thing's name followed by that label without "Times". The game phrases the last two as
 * sentences with numbers in them ("You killed %s %s"), so they get a phrasing of their own.
 */
const FAMILIES = {
  mined: { of: 'blocks', label: 'stat_type.minecraft.mined' },
  crafted: { of: 'items', label: 'stat_type.minecraft.crafted' },
  used: { of: 'items', label: 'stat_type.minecraft.used' },
  broken: { of: 'items', label: 'stat_type.minecraft.broken' },
  picked_up: { of: 'items', label: 'stat_type.minecraft.picked_up' },
  dropped: { of: 'items', label: 'stat_type.minecraft.dropped' },
  killed: { of: 'entities', name: '%s Kills' },
  killed_by: { of: 'entities', name: 'Killed by %s' },
};

/** "music_disc_cat" → "Music Disc Cat": the name of a thing the language file does not name. */
function titleCase(id) {
  return id
    .split(/[_\-/.]+/)
    .filter((w) => w !== '')
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * Names of one list (blocks, items or entities) from the language file. Where several things share a name (21
 * music discs are all "Music Disc", 19 smithing templates "Smithing Template"), each gets the game's newer full
 * name (`….new`: "Sentry Armor Trim"), else its description in brackets ("Music Disc (C418 - cat)"), else its id
 * title-cased, so that no two statistics of a family have the same name.
 */
function namesOf(things, language, prefixes) {
  const keyOf = (id) => prefixes.map((p) => `${p}.minecraft.${id}`).find((k) => language[k] !== undefined);
  const names = new Map(things.map((t) => [t.name, keyOf(t.name) ? language[keyOf(t.name)] : titleCase(t.name)]));
  const count = new Map();
  for (const n of names.values()) count.set(n, (count.get(n) ?? 0) + 1);
  const out = {};
  for (const [id, name] of [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = keyOf(id);
    if (count.get(name) === 1 || !key) out[id] = name;
    else if (language[`${key}.new`]) out[id] = language[`${key}.new`];
    else if (language[`${key}.desc`]) out[id] = `${name} (${language[`${key}.desc`]})`;
    else out[id] = titleCase(id);
  }
  return out;
}

function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

function download() {
  const dir = mkdtempSync(join(tmpdir(), 'stat-catalog-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', `${PACKAGE}@${PACKAGE_VERSION}`, '--json', '--pack-destination', dir], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    )[0];
    if (packed.integrity !== INTEGRITY) throw new Error(`${PACKAGE}@${PACKAGE_VERSION}: integrity ${packed.integrity}`);
    const tarball = join(dir, packed.filename);
    const root = 'package/minecraft-data/data';
    const read = (path) => {
      execFileSync('tar', ['-xzf', tarball, '-C', dir, `${root}/${path}`]);
      return JSON.parse(readFileSync(join(dir, root, path), 'utf8'));
    };
    const paths = read('dataPaths.json')[EDITION];
    const own = paths[GAME_VERSION];
    if (!own) throw new Error(`${PACKAGE}@${PACKAGE_VERSION} has no data for ${EDITION} ${GAME_VERSION}`);
    const newer = Object.keys(paths).filter((v) => paths[v].language === `${EDITION}/${v}`);
    if (newer.at(-1) !== GAME_VERSION) process.stderr.write(`note: ${newer.at(-1)} is newer than ${GAME_VERSION}\n`);
    const file = (kind) => read(`${own[kind]}/${kind}.json`);
    return { language: file('language'), blocks: file('blocks'), items: file('items'), entities: file('entities') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { language, blocks, items, entities } = download();
const custom = {};
for (const key of Object.keys(language).sort()) {
  const m = /^stat\.minecraft\.([a-z0-9_]+)$/.exec(key);
  if (m) custom[m[1]] = language[key];
}
const families = {};
for (const [type, f] of Object.entries(FAMILIES)) {
  const label = f.label ? language[f.label] : undefined;
  if (f.label && !label) throw new Error(`no ${f.label} in the language file`);
  families[type] = { of: f.of, name: f.name ?? `%s ${label.replace(/^Times /, '')}` };
}
const content = {
  groups: {
    general: language['stat.generalButton'],
    items: language['stat.itemsButton'],
    mobs: language['stat.mobsButton'],
  },
  custom,
  families,
  blocks: namesOf(blocks, language, ['block']),
  items: namesOf(items, language, ['item', 'block']),
  entities: namesOf(entities, language, ['entity']),
};
const catalog = {
  source: { package: PACKAGE, version: PACKAGE_VERSION, edition: EDITION, game_version: GAME_VERSION },
  generator_sha256: sha256(readFileSync(SCRIPT, 'utf8')),
  content_sha256: sha256(JSON.stringify(content)),
  ...content,
};
writeFileSync(OUT, `${JSON.stringify(catalog, null, 1)}\n`);
process.stdout.write(
  `wrote ${OUT}: ${Object.keys(custom).length} custom statistics, ${Object.keys(content.blocks).length} blocks, ` +
    `${Object.keys(content.items).length} items, ${Object.keys(content.entities).length} entities ` +
    `(${PACKAGE}@${PACKAGE_VERSION}, ${EDITION} ${GAME_VERSION})\n`,
);
