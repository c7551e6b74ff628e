# Signalboard: the compiled service on Node 24, as an unprivileged user.
#   docker build -t signalboard .
#   docker run -e DATABASE_URL=… -e APP_SECRET_KEY=… -e PUBLIC_BASE_URL=https://… -p 4000:4000 signalboard
# The same image runs the webhook worker alone: `node dist/webhooks/worker-main.js`.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 METRICS_PORT=9464
# V8 sizes its young generation to the machine (2 × 64 MiB on a large one); 16 MiB semi-spaces
# held peak RSS at 50 connections ~200 MB lower with 5–23 % more v1 throughput in alternated runs
# (test/bench/README.md, "2026-11-24"). Node starts 4 V8 worker threads (GC, compilers) whatever
# the cores; 2, as this image's measured 2-core machine has, kept 11 MB fewer malloc arenas, cold
# paths even in A/B at 50 connections but bench:ai 1.05–1.10× hand SQL against 1.01 with 4 (its
# spread is ±0.1; test/bench/README.md, "2026-11-25, fifth session"): raise it with the container's
# CPUs, or to 4 where the cold AI path matters more. The benchmarks start services with this line.
ENV NODE_OPTIONS="--max-semi-space-size=16 --v8-pool-size=2"
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
# Production dependencies only; the postinstall generates the Prisma client the build compiled against.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY graphql ./graphql
# The views' sources: bundled by esbuild on their first request (src/views/bundles.ts).
COPY web ./web
USER node
EXPOSE 4000 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM drains (SHUTDOWN_GRACE_SECONDS); give the container at least that long to stop.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
