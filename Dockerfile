# Statboard as a container image. Written and reviewed, not built by CI here (no Docker engine on our machines).
# Build from the repository root:  docker build -t statboard .
# The console (a static build, served by the service at /) is built in a stage of its own.
FROM node:20-bookworm-slim AS console
WORKDIR /build
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

FROM node:20-bookworm-slim

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    LOG_FORMAT=json \
    DATA_DIR=/var/lib/statboard

WORKDIR /app
# Dependencies first (cached while only sources change).
COPY package.json package-lock.json ./
COPY apps/statboard/package.json apps/statboard/package.json
COPY apps/console/package.json apps/console/package.json
COPY packages/endpoint-server/package.json packages/endpoint-server/package.json
COPY packages/sdk/package.json packages/sdk/package.json
COPY packages/game-files/package.json packages/game-files/package.json
COPY packages/agent/package.json packages/agent/package.json
COPY scripts scripts
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY apps/statboard apps/statboard
COPY packages/game-files packages/game-files
# The one module of the SDK the service uses (formatting values for the public site), bundled by the build.
COPY packages/sdk/src packages/sdk/src
COPY --from=console /build/apps/console/dist apps/console/dist
# The service's sources bundled into apps/statboard/dist/server.js, as `npm start` does before it starts.
RUN node apps/statboard/scripts/build.mjs

RUN mkdir -p /var/lib/statboard && chown node:node /var/lib/statboard
USER node
VOLUME ["/var/lib/statboard"]
EXPOSE 8080
# Liveness; orchestrators should use /health/ready for readiness (503 while the database is unreachable).
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM drains and exits 0 within SHUTDOWN_TIMEOUT_SECONDS (10); give the container a little more.
STOPSIGNAL SIGTERM
# The flags of `npm start` (apps/statboard/package.json): see "Caches and memory" in apps/statboard/README.md.
CMD ["node", "--max-semi-space-size=8", "apps/statboard/dist/server.js"]
