/**
 * `server.properties` (Java properties format), read for `level-name`: the parser is shared with statboard-agent
 * (packages/game-files).
 * @packageDocumentation
 */
export { parseProperties } from '@statboard/game-files/properties';
