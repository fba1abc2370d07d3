import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

/** The metrics listener: `GET /metrics` on its own port, apart from the API (no key, no rate limit, no access log). */
export class MetricsListener {
  private constructor(private readonly server: Server) {}

  /** Listens on `host:port` (0: any free port) and answers scrapes of `metrics`. */
  static async start(metrics: Metrics, host: string, port: number): Promise<MetricsListener> {
    const server = createServer({ requestTimeout: 10_000, keepAliveTimeout: 65_000 }, (req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: scrape /metrics\n');
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
        return;
      }
      metrics.scrape().then(
        ({ body, contentType }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (err: unknown) => {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String(err)}\n`);
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new MetricsListener(server);
  }

  /** The port it listens on. */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
