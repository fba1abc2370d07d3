import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The state file, in the server folder. */
export const STATE_FILE = '.statboard-agent.json';

/** What the agent remembers of one player's statistics file. */
export interface FileState {
  /** The file as last read: a file with the same time and size is not read again. */
  mtimeMs: number;
  size: number;
  /** A digest of what was last uploaded of it (values and name); null: never uploaded. */
  sent: string | null;
  /** The name it was sent with (from usercache.json), null: none. */
  name?: string | null;
}

export interface AgentState {
  version: 1;
  /** The service the uploads went to: another one gets every file again. */
  url: string;
  players: Record<string, FileState>;
}

/** The state of `dir`, or a fresh one when there is none, it is unreadable, or it was for another service. */
export async function loadState(dir: string, url: string): Promise<AgentState> {
  const fresh: AgentState = { version: 1, url, players: {} };
  let text: string;
  try {
    text = await readFile(join(dir, STATE_FILE), 'utf8');
  } catch {
    return fresh;
  }
  try {
    const doc = JSON.parse(text) as Partial<AgentState>;
    if (doc.version !== 1 || doc.url !== url || typeof doc.players !== 'object' || doc.players === null) return fresh;
    return { version: 1, url, players: doc.players };
  } catch {
    return fresh;
  }
}

/**
 * Writes the state atomically: to a file beside it, then renamed over it, so a crash leaves the old state or the
 * new one, never half of one.
 */
export async function saveState(dir: string, state: AgentState): Promise<void> {
  const path = join(dir, STATE_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(state));
  await rename(temporary, path);
}
