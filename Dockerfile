# One image recipe for every Node part of the shop: `--build-arg APP=services/identity` (or
# services/catalog, gateway, …). The build stage compiles the whole workspace once; the runtime
# stage keeps production dependencies and the one app's output, runs as a non-root user, and
# needs no writable root filesystem (uploads go to a mounted volume).
ARG NODE_VERSION=20

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /repo
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/nest-common/package.json packages/nest-common/
COPY packages/catalog-read-model/package.json packages/catalog-read-model/
COPY packages/fake-paypal/package.json packages/fake-paypal/
COPY services/catalog/package.json services/catalog/
COPY services/identity/package.json services/identity/
COPY services/cart/package.json services/cart/
COPY services/checkout/package.json services/checkout/
COPY services/orders/package.json services/orders/
COPY services/notifications/package.json services/notifications/
COPY gateway/package.json gateway/
COPY web/package.json web/
COPY e2e/package.json e2e/
# `npm ci` when the lockfile is complete; a lockfile written where the registry lacked some other-platform
# optional packages (e.g. @swc/core-darwin-*) makes it refuse, and `npm install` then installs the same
# locked versions (scripts/lib/deps.mjs, which npm start and npm test run, does the same). SCARF_ANALYTICS=false:
# swagger-ui-dist's install script would report the install to its publisher.
RUN export SCARF_ANALYTICS=false && (npm ci --no-audit --no-fund || npm install --no-audit --no-fund)
COPY tsconfig.base.json tsconfig.build.json ./
COPY packages packages
COPY services services
COPY gateway gateway
COPY web web
COPY scripts/openapi.mjs scripts/
# scripts/openapi.mjs writes the OpenAPI documents from the built code (gateway/dist/openapi.json is what the
# gateway image serves at /api/docs): no database or broker is needed for it.
RUN npx tsc -b tsconfig.build.json && node scripts/openapi.mjs && npm run build -w web && npm prune --omit=dev

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ARG APP
# 4 MB young-generation semi-spaces (V8's default is 16 MB): ~35 MB less RSS per process (docs/performance.md,
# "Footprint"); npm start sets the same (scripts/lib/stack.mjs).
ENV NODE_ENV=production APP=${APP} NODE_OPTIONS=--max-semi-space-size=4
WORKDIR /repo
COPY --from=build --chown=node:node /repo/node_modules node_modules
COPY --from=build --chown=node:node /repo/package.json ./
COPY --from=build --chown=node:node /repo/packages/contracts/package.json packages/contracts/
COPY --from=build --chown=node:node /repo/packages/contracts/dist packages/contracts/dist
COPY --from=build --chown=node:node /repo/packages/nest-common/package.json packages/nest-common/
COPY --from=build --chown=node:node /repo/packages/nest-common/dist packages/nest-common/dist
COPY --from=build --chown=node:node /repo/packages/nest-common/logging packages/nest-common/logging
COPY --from=build --chown=node:node /repo/packages/catalog-read-model/package.json packages/catalog-read-model/
COPY --from=build --chown=node:node /repo/packages/catalog-read-model/dist packages/catalog-read-model/dist
COPY --from=build --chown=node:node /repo/${APP}/package.json ${APP}/
COPY --from=build --chown=node:node /repo/${APP}/dist ${APP}/dist
# notifications' email templates (MJML, plain text), compiled when it starts: a few kilobytes, in every image.
COPY --from=build --chown=node:node /repo/services/notifications/templates services/notifications/templates
COPY --from=build --chown=node:node /repo/web/dist web/dist
# Mount point for catalog's uploads: a fresh named volume takes this directory's owner.
RUN mkdir -p /uploads && chown node:node /uploads
USER node
EXPOSE 8080 3001 3002 3003 3004 3005 3006
CMD ["sh", "-c", "exec node \"$APP/dist/main.js\""]
