# Goblin Bazaar: multi-stage build. The runtime image holds only production dependencies,
# the compiled server, the built web client and the migrations.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json prisma.config.ts tsconfig.json tsconfig.build.json ./
COPY prisma ./prisma
# postinstall runs `prisma generate` (no native engine needed).
RUN npm install --no-audit --no-fund
COPY src ./src
COPY client ./client
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
# HOST: the server listens on 127.0.0.1 unless told otherwise; in a container it must accept
# connections from the published port and from the balancer (docker-compose.yml).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/client/dist ./client/dist
COPY --from=build /app/prisma ./prisma
# `npm run vapid-keys` (a Web Push key pair) runs from its source: Node 24 reads TypeScript types away.
COPY --from=build /app/src/tools/vapid-keys.ts ./src/tools/vapid-keys.ts
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness only (is the process serving?): the balancer checks readiness, /api/ready, itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The same node flags as `npm start` (package.json; test/config-docs.test.ts keeps them equal).
CMD ["node", "--max-semi-space-size=64", "--heap-growing-percent=250", "--initial-old-space-size=512", "dist/main.js"]
