/**
 * A second reference for the reads benchmark: bare node:http answering a fixed JSON body of BODY_BYTES bytes
 * (the size of a top-100 leaderboard), so that what the body's size alone costs is measured in the same run.
 */
import { createServer } from 'node:http';

const size = Number(process.env.BODY_BYTES ?? 17);
const body = Buffer.from(JSON.stringify({ hello: 'x'.repeat(Math.max(0, size - 12)) }));
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
