import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real database server, to put network faults between the service and it:
 * `down()` refuses and cuts every connection (a stopped or crashed server), `hang()` accepts connections but
 * forwards nothing either way (stopped processes, a partition), `up()` restores normal service.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly pairs = new Set<[Socket, Socket]>();
  private hung = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  private accept(client: Socket): void {
    const upstream = connect(this.targetPort, this.targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (d: Buffer) => {
      if (!this.hung) upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (!this.hung) client.write(d);
    });
  }

  /** Refuses new connections and cuts the open ones. */
  async down(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Connections stay open (and new ones are accepted) but nothing gets through: the server seems hung. */
  hang(): void {
    this.hung = true;
  }

  /** Back to normal: listening again on the same port, forwarding everything. */
  async up(): Promise<void> {
    this.hung = false;
    if (!this.server) await this.start(this.port);
  }

  async stop(): Promise<void> {
    this.hung = false;
    await this.down();
  }
}
