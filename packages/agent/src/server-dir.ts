import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseProperties } from '@statboard/game-files/properties';

/** What the agent takes from `server.properties`. */
export interface ServerSettings {
  /** The world folder's name (`level-name`, default `world`): its `stats/` holds one file per player. */
  levelName: string;
  /** RCON, when `enable-rcon=true` with a password: who is online comes from its `list` command. */
  rcon: { port: number; password: string } | null;
}

/** Reads `DIR/server.properties`; throws with a readable message when it is missing. */
export async function readServerSettings(dir: string): Promise<ServerSettings> {
  const path = join(dir, 'server.properties');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'}): is --server-dir the folder of the Minecraft server?`,
    );
  }
  const p = parseProperties(text);
  const levelName = (p.get('level-name') ?? '').trim() || 'world';
  const port = Number.parseInt(p.get('rcon.port') ?? '25575', 10);
  const password = p.get('rcon.password') ?? '';
  const enabled = (p.get('enable-rcon') ?? 'false').trim() === 'true' && password !== '';
  return {
    levelName,
    rcon: enabled && Number.isInteger(port) && port > 0 && port < 65536 ? { port, password } : null,
  };
}
