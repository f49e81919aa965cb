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
# The build copies the /docs browser files out of development dependencies into dist/.
COPY scripts/copy-docs-assets.js ./scripts/
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code, production dependencies and the published schemas only.
FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY schema ./schema
USER node
EXPOSE 3000 9464
CMD ["node", "dist/main.js"]
