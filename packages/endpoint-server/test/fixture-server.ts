// The fixture Minecraft server folder and config.yml shared by the process-level suites.
import { utimesSync } from 'node:fs';
import { offlinePlayerUuid } from '#src/hosts/sidecar/offline-uuid.ts';
import type { Fixture } from './helpers.ts';

export const STEVE = '8667ba71-b85a-4004-af54-457a9734eed7';
export const ALEX = 'ec561538-f3fd-461d-aff5-086b22154bce';
export const HEROBRINE = offlinePlayerUuid('Herobrine');

export const T = {
  steveLogin: Date.UTC(2024, 4, 1, 10, 0, 0),
  steveSeen: Date.UTC(2024, 4, 1, 12, 30, 15),
  alexPlayed: Date.UTC(2024, 5, 2, 8, 5, 9),
  herobrineMtime: Date.UTC(2023, 0, 2, 3, 4, 5),
};

export function configYaml(servertapUrl: string, extra = ''): string {
  return `# HMTAPI-style config
bind_address: 127.0.0.1
port: 0
request_timeout_seconds: 1
never_seen_value: never
servertap:
  url: ${servertapUrl}
  key: secret-key
${extra}
endpoints:
  player:
    require_player: yes
    object:
      name: "{username}"
      login: "{last_login}"
      seen: "{last_seen}"
      display: "{ext:player_displayname}"
      level: "{papi:%player_level%}"
  server:
    require_player: false
    object:
      online: "{ext:server_online}"
      who: "{username}"
      seen: "{last_seen}"
  info:
    object:
      z: 1
      a: yes
      "10": 1.5
      list: [x, 2]
      none: null
      html: "<b>&'=\\"\\\\\\n"
  empty:
    object: {}
  noobj:
    require_player: true
  slow:
    object:
      v: "{ext:slow}"
  broken:
    object:
      v: "{ext:boom}"
  bad.name:
    object: {}
`;
}

/** Builds the server folder: level-name "survival", both player-file layouts, a usercache. */
export function buildServerFolder(fx: Fixture, servertapUrl: string): string {
  fx.write('server.properties', '#Minecraft server properties\nmotd=A Minecraft Server\nlevel-name=survival\n');
  fx.write(
    'usercache.json',
    JSON.stringify([
      { name: 'Steve', uuid: STEVE, expiresOn: '2024-06-01 10:00:00 +0000' },
      { name: 'Alex', uuid: ALEX, expiresOn: '2024-07-31 09:00:00 +0200' },
    ]),
  );
  fx.writePlayer('survival/playerdata', STEVE, {
    paperLastLogin: T.steveLogin,
    paperLastSeen: T.steveSeen,
    bukkitLastPlayed: 1,
  });
  // Minecraft 26.1 layout, vanilla-style data: only bukkit.lastPlayed.
  fx.writePlayer('survival/players/data', ALEX, { bukkitLastPlayed: T.alexPlayed });
  const hero = fx.writePlayer('survival/playerdata', HEROBRINE, {});
  utimesSync(hero, T.herobrineMtime / 1000, T.herobrineMtime / 1000);
  return fx.write('config.yml', configYaml(servertapUrl));
}
