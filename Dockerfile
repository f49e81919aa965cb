# Node 24: the Active LTS line (supported until April 2028); Node 22 leaves maintenance in
# April 2027. .nvmrc names the same line; package.json "engines" also admits 20.19+ and 22.12+,
# which CI and the embedded demo still run on.
# Build stage: compile TypeScript with the locked dependencies.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schema ./schema
# The build copies the /docs browser files out of development dependencies into dist/, and
# builds the studio web app (studio/, Vite) into dist/studio.
COPY scripts/copy-docs-assets.js scripts/studio-size.js ./scripts/
COPY studio ./studio
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code, production dependencies and the published schemas only.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
# Two malloc arenas instead of glibc's eight per core: the native buffers of gzip and sockets
# otherwise leave the process ~35 MiB larger under a flood (README, "Memory").
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY schema ./schema
USER node
EXPOSE 3000 9464
# Healthy = ready: the database answers, migrations are applied, the demo (when seeded) is whole.
# The first start seeds the demo before it is ready, hence the start period. Compose's own
# healthchecks (the worker has no HTTP port) replace this one.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/main.js"]
