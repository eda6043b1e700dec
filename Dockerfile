# syntax=docker/dockerfile:1.7
# One image per Orquestra service or provider emulator, from the repository's own build scripts:
#
#   docker build --build-arg SERVICE=payments      -t orquestra/payments:dev .
#   docker build --build-arg SERVICE=emulators/efi -t orquestra/emulator-efi:dev .
#   docker build --target dev-certs                -t orquestra/dev-certs:dev .   (compose only)
#
# SERVICE is a directory under services/ (gateway, accounts, payments, routing, providers,
# notifications) or emulators/<code> for tools/emulators/<code>. docs/deployment.md has the rest.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- 1. every dependency, dev tools included (buf, ts-proto, esbuild) ------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /src
COPY package.json package-lock.json ./
# Install scripts stay on here: esbuild and buf check their platform binaries in postinstall.
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund

# --- 2. generate the gRPC code from proto/ and bundle one entry point ----------------------------
FROM deps AS build
ARG SERVICE
COPY tsconfig.base.json nx.json ./
COPY proto/ proto/
COPY libs/ libs/
COPY services/ services/
COPY tools/build/ tools/build/
COPY tools/proto/ tools/proto/
COPY tools/emulators/ tools/emulators/
# /out mirrors the repository layout (dist/services/<svc>/main.js, dist/tools/emulators/<code>/main.js)
# plus a package.json whose "main" is that bundle, so the image runs it with `node .`.
# The gateway's image also holds the owner's dashboard (static files, dist/dashboard), which it serves,
# and the API reference's viewer bundle (dist/services/gateway/docs, copied by build-service.mjs).
RUN set -eu; \
    case "${SERVICE:-}" in \
      "") echo "missing --build-arg SERVICE=<service> (gateway, accounts, payments, routing, providers, notifications) or SERVICE=emulators/<code>" >&2; exit 2 ;; \
      emulators/*) code="${SERVICE#emulators/}"; \
        node tools/emulators/build.mjs "$code"; \
        main="dist/tools/emulators/$code/main.js" ;; \
      *) bash tools/proto/generate.sh; \
        node tools/build/build-service.mjs "$SERVICE"; \
        main="dist/services/$SERVICE/main.js" ;; \
    esac; \
    test -f "$main"; \
    mkdir -p "/out/$(dirname "$main")"; \
    cp "$main" "$main.map" "/out/$(dirname "$main")/"; \
    if [ "$SERVICE" = gateway ]; then node tools/build/build-dashboard.mjs && cp -r dist/dashboard /out/dist/dashboard \
      && cp -r dist/services/gateway/docs /out/dist/services/gateway/docs; fi; \
    version="$(node -p 'require("./package.json").version')"; \
    name="orquestra-$(echo "$SERVICE" | tr / -)"; \
    printf '{"name":"%s","version":"%s","private":true,"main":"%s"}\n' "$name" "$version" "$main" > /out/package.json

# --- 3. production dependencies only ------------------------------------------------------------
# esbuild leaves every npm package external (tools/build/build-service.mjs: packages: 'external',
# so OpenTelemetry's require hooks patch the real modules): the bundle needs package.json's
# "dependencies" at run time, and nothing of "devDependencies".
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: none of the production dependencies needs one (protobufjs' only checks versions).
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# --- dev-certs: throwaway PKI and Woovi signing key for docker-compose.yml (never for production) --
FROM debian:bookworm-slim AS dev-certs
RUN apt-get update \
    && apt-get install -y --no-install-recommends openssl \
    && rm -rf /var/lib/apt/lists/* \
    && mkdir /certs && chown 10001:10001 /certs
COPY --chmod=0755 tools/k8s/dev-certs.sh /usr/local/bin/dev-certs
USER 10001:10001
ENTRYPOINT ["/usr/local/bin/dev-certs", "/certs"]

# --- 4. runtime: node, the production node_modules, one bundle ----------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
# Nothing here installs packages at run time: drop npm, npx, corepack and yarn (less to patch,
# less for an intruder to use). The app user gets a passwd entry (no home, no shell) so that
# os.userInfo() and anything else that looks the user up works.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
           /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
           /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* \
    && groupadd --gid 10001 orquestra \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin orquestra
# Files stay owned by root and read-only to the app user.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY tools/k8s/healthcheck.cjs ./tools/k8s/healthcheck.cjs
COPY --from=build /out/ ./
USER 10001:10001
# `node .` runs package.json "main", i.e. dist/services/<svc>/main.js (or the emulator's bundle):
# exec form, so node is PID 1 and gets SIGTERM directly (every entry point handles it).
CMD ["node", "."]
