/** The reference for the public site benchmark: @fastify/static serving STATIC_ROOT (the pages' saved bytes). */
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root: process.env.STATIC_ROOT ?? '/nonexistent', prefix: '/' });
app.get('/ready', async () => 'ok');
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
