# Ghișeu: the production image (docs/operations.md "Containers"). Three stages: the browser build, the
# production dependencies, and the runtime (Node 20 slim, non-root, NODE_ENV=production).

# 1. The browser app (dist/), built with every dependency.
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build

# 2. Production dependencies only (tsx runs the server's TypeScript; sharp brings its own binaries).
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. The runtime: what the server reads, owned by root and run as the unprivileged `node` user.
FROM node:20-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    STATIC_DIR=/app/dist \
    DATA_DIR=/tmp/ghiseu
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.json ./
COPY server ./server
COPY src/core ./src/core
COPY flows ./flows
COPY schemas ./schemas
# What the flow check reads beside them (at start and in the staff preview, server/flows/check.ts), and
# the Romanian reasons of identity decisions (server/identity/reasons.ts): the texts and the widget names.
COPY locales ./locales
COPY widgets/names.json ./widgets/names.json
# The signed documents' templates (docs/flows-and-widgets.md "Signed documents"), the brand and the legal pages, read at start.
COPY content ./content
USER node
EXPOSE 3000
# Ready = the database, Redis and the S3 storage answer (GET /api/health/ready, 503 otherwise).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: the requests in flight finish (SHUTDOWN_TIMEOUT_MS), then the process exits.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "server/server.ts"]
