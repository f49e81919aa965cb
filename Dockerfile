# Build stage: compile TypeScript with the locked dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schema ./schema
RUN npm run build && npm prune --omit=dev

# Runtime stage: compiled code, production dependencies and the published schemas only.
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY schema ./schema
USER node
EXPOSE 3000
CMD ["node", "dist/main.js"]
