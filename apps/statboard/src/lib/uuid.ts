// The rule lives with the game's files (packages/game-files), which statboard-agent shares.
export { isUuid } from '@statboard/game-files/uuid';
