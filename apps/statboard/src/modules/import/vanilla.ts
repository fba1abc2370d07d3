// The parsing of a server's files is shared with statboard-agent: it lives in packages/game-files.
export {
  type ParsedStats,
  parseUsercache,
  parseVanillaStats,
  playerOfFile,
  statKey,
} from '@statboard/game-files/vanilla';
