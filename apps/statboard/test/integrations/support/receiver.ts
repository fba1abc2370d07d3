import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the receiver does with a request: answer 200 or 500, answer too late, or drop the connection. */
export type Behaviour = 'ok' | 'fail' | 'slow' | 'close';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A real HTTP webhook receiver on 127.0.0.1. `behave` decides per request (by its 1-based number); `stop`
 * closes the port (deliveries then meet "connection refused") and `start` opens the same port again.
 */
export class Receiver {
  readonly received: Received[] = [];
  /** Requests answered 2xx. */
  readonly accepted: Received[] = [];
  behave: (n: number, r: Received) => Behaviour = () => 'ok';
  slowMs = 3_000;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((r) => s.close(r));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const r: Received = { headers, body, at: Date.now() };
    this.received.push(r);
    const b = this.behave(this.received.length, r);
    if (b === 'close') {
      req.socket.destroy();
      return;
    }
    if (b === 'slow') await new Promise((done) => setTimeout(done, this.slowMs));
    if (b === 'fail') {
      res.writeHead(500).end('down for maintenance');
      return;
    }
    if (!res.destroyed) {
      if (b === 'ok') this.accepted.push(r);
      res.writeHead(204).end();
    }
  }

  /** Waits until `check` holds (polling), or fails after `ms`. */
  async until(check: () => boolean, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met within ${ms} ms (${this.received.length} received)`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
