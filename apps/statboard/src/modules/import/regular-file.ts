import { constants, type Stats } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

/** No file the importer reads may be larger: a vanilla statistics file of a long-played world is about 100 KB. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * `O_NOFOLLOW`: a symbolic link put in place after the `lstat` fails to open (ELOOP) instead of being followed.
 * `O_NONBLOCK`: a FIFO put in place after the `lstat` opens at once instead of waiting for a writer (forever);
 * it changes nothing for regular files. Both are 0 where the platform lacks them.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Why a path is not read; none of these quotes anything of the file's content. */
function kindOf(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isSymbolicLink()) return 'a symbolic link: not followed';
  if (info.isDirectory()) return 'not a regular file (a directory)';
  if (info.isFIFO()) return 'not a regular file (a named pipe)';
  if (info.isSocket()) return 'not a regular file (a socket)';
  if (info.isBlockDevice() || info.isCharacterDevice()) return 'not a regular file (a device)';
  return 'not a regular file';
}

const TOO_LARGE = `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB: not read`;

/** What `inspect` found: a regular file of `size` bytes, or why it is not read. */
export type Inspected = { ok: true; size: number } | { ok: false; reason: string; missing?: true };

/** Looks at a path without following it or opening it: only a regular file of at most 8 MB is read. */
export async function inspect(path: string): Promise<Inspected> {
  let info: Stats;
  try {
    info = await lstat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: `unreadable: ${code ?? 'error'}`, ...(code === 'ENOENT' ? { missing: true } : {}) };
  }
  const kind = kindOf(info);
  if (kind !== null) return { ok: false, reason: kind };
  if (info.size > MAX_FILE_BYTES) return { ok: false, reason: TOO_LARGE };
  return { ok: true, size: info.size };
}

/** A regular file's bytes and modification time, or why it is not read. */
export type ReadResult = { ok: true; bytes: Buffer; mtime: Date } | { ok: false; reason: string };

/**
 * Reads a regular file of at most 8 MB. The checks of `inspect` are made again on the opened handle (`fstat`), so
 * a path swapped between the two for a link, a FIFO, a device or a larger file is never followed, waited on or
 * read whole; at most 8 MB and one byte are ever read.
 */
export async function readRegularFile(path: string): Promise<ReadResult> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, reason: code === 'ELOOP' ? 'a symbolic link: not followed' : `unreadable: ${code ?? 'error'}` };
  }
  try {
    const info = await handle.stat();
    const kind = kindOf(info);
    if (kind !== null) return { ok: false, reason: kind };
    if (info.size > MAX_FILE_BYTES) return { ok: false, reason: TOO_LARGE };
    // The size may change while reading (Minecraft rewrites the files of players online): read to the end, but
    // never past the limit. One byte more than the size shows the end without a second buffer.
    let buffer = Buffer.allocUnsafe(info.size + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > MAX_FILE_BYTES) return { ok: false, reason: TOO_LARGE };
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, MAX_FILE_BYTES + 1));
        buffer.copy(larger);
        buffer = larger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > MAX_FILE_BYTES) return { ok: false, reason: TOO_LARGE };
    return { ok: true, bytes: buffer.subarray(0, filled), mtime: info.mtime };
  } catch (err) {
    return { ok: false, reason: `unreadable: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  } finally {
    await handle.close();
  }
}
