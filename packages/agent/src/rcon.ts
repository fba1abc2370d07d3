import { connect, type Socket } from 'node:net';

/**
 * The game server's remote console (RCON, the Source RCON protocol that Minecraft speaks): each packet is a
 * little-endian int32 length, then int32 request id, int32 type, an ASCII body and two NUL bytes. Login is type
 * 3 (the answer carries the request id, or -1 when the password is wrong), a command type 2 (answered with type 0).
 */
export const LOGIN = 3;
export const COMMAND = 2;
export const RESPONSE = 0;

export interface Packet {
  id: number;
  type: number;
  body: string;
}

/** One packet as bytes. */
export function encodePacket(p: Packet): Buffer {
  const body = Buffer.from(p.body, 'utf8');
  const out = Buffer.alloc(14 + body.length);
  out.writeInt32LE(10 + body.length, 0);
  out.writeInt32LE(p.id, 4);
  out.writeInt32LE(p.type, 8);
  body.copy(out, 12);
  return out;
}

/**
 * Packets read from a stream of bytes: `push` what arrived, get the packets it completed. A length outside the
 * protocol's bounds is an error (not RCON on the other end).
 */
export class PacketReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Packet[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const out: Packet[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readInt32LE(0);
      if (length < 10 || length > 1_048_576) throw new Error('not an RCON packet');
      if (this.pending.length < 4 + length) break;
      out.push({
        id: this.pending.readInt32LE(4),
        type: this.pending.readInt32LE(8),
        body: this.pending.toString('utf8', 12, 4 + length - 2),
      });
      this.pending = this.pending.subarray(4 + length);
    }
    return out;
  }
}

/** A connected, logged-in RCON client; one command at a time. */
export class RconClient {
  private nextId = 1;
  private readonly reader = new PacketReader();
  private waiting: { id: number; resolve: (p: Packet) => void; reject: (e: Error) => void } | null = null;
  private closed: Error | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      let packets: Packet[];
      try {
        packets = this.reader.push(chunk);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      for (const p of packets) {
        const w = this.waiting;
        // A wrong password is answered with id -1.
        if (w && (p.id === w.id || p.id === -1)) {
          this.waiting = null;
          w.resolve(p);
        }
      }
    });
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('the RCON connection closed')));
  }

  private fail(err: Error): void {
    this.closed ??= err;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(err);
    this.socket.destroy();
  }

  /** Connects and logs in; rejects on a wrong password, a refused connection or `timeoutMs` without an answer. */
  static async open(host: string, port: number, password: string, timeoutMs = 5_000): Promise<RconClient> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect({ host, port });
      const timer = setTimeout(
        () => s.destroy(new Error(`no answer from ${host}:${port} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    const client = new RconClient(socket);
    const answer = await client.send(LOGIN, password, timeoutMs);
    if (answer.id === -1) {
      client.close();
      throw new Error('RCON refused the password (rcon.password in server.properties)');
    }
    return client;
  }

  private send(type: number, body: string, timeoutMs: number): Promise<Packet> {
    if (this.closed) return Promise.reject(this.closed);
    if (this.waiting) return Promise.reject(new Error('an RCON command is already running'));
    const id = this.nextId++;
    return new Promise<Packet>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`RCON did not answer within ${timeoutMs} ms`)), timeoutMs);
      this.waiting = {
        id,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.socket.write(encodePacket({ id, type, body }));
    });
  }

  /** Runs a console command and returns its output. */
  async command(text: string, timeoutMs = 5_000): Promise<string> {
    return (await this.send(COMMAND, text, timeoutMs)).body;
  }

  get isOpen(): boolean {
    return this.closed === null;
  }

  close(): void {
    this.fail(new Error('closed'));
  }
}

const UUID_IN_PARENS = /^(.*?)\s*\(([0-9a-fA-F-]{36})\)$/;

/**
 * The players of the `list` command's output: vanilla's "There are N of a max of M players online: a, b" (with
 * `list uuids`, each name followed by its UUID in parentheses), and the grouped lines some servers print after a
 * first line ("default: a, b"). Colour codes (§x) are dropped. Each entry: the name, and the UUID when printed.
 */
export function parseList(output: string): { name: string; uuid: string | null }[] {
  const text = output.replace(/§./g, '');
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const lists: string[] = [];
  for (const [i, line] of lines.entries()) {
    const at = line.indexOf(':');
    if (i === 0) {
      if (/online:/.test(line)) lists.push(line.slice(line.indexOf('online:') + 'online:'.length));
    } else if (at >= 0) lists.push(line.slice(at + 1));
  }
  const out: { name: string; uuid: string | null }[] = [];
  for (const list of lists) {
    for (const raw of list.split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      const m = UUID_IN_PARENS.exec(entry);
      out.push(m ? { name: m[1]!, uuid: m[2]!.toLowerCase() } : { name: entry, uuid: null });
    }
  }
  return out;
}
