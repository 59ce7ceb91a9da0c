# mail-sandbox's image: the built server, its production dependencies and Node 20, configured by SANDBOX_* variables.
#   docker build -t mail-sandbox .
#   docker run -p 127.0.0.1:8025:8025 -p 127.0.0.1:2525:2525 -v mail-sandbox-data:/data mail-sandbox
# The first start prints the default workspace's API key once, in the JSON log line with field api_key.
# BASE is any image with Node >= 20.19, npm and Node's headers under /usr/local (as the official images have them) on
# Debian bookworm; test/container/ builds with a local one (scripts/container/base-images) where no registry is reachable.
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS build
# better-sqlite3 compiles natively: its prebuilt binaries come from GitHub, which a build may not reach.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
# node-gyp builds against the base's own Node headers instead of downloading them.
ENV npm_config_nodedir=/usr/local
WORKDIR /app
# The manifests first: the installed dependencies stay cached while only sources change.
COPY package.json package-lock.json ./
# Behind a TLS-intercepting proxy, its CA comes in as a build secret (never a layer):
#   docker build --secret id=npm_ca,src=/path/to/ca-bundle.crt .
RUN --mount=type=secret,id=npm_ca \
    if [ -f /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
 && npm ci --no-audit --no-fund
COPY . .
# better-sqlite3 keeps its compiler's inputs and objects (27 MB) beside the one addon it loads.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -f dist/.tsbuildinfo \
 && cd node_modules/better-sqlite3 \
 && mv build/Release/better_sqlite3.node . && rm -rf build deps src \
 && mkdir -p build/Release && mv better_sqlite3.node build/Release/

FROM ${BASE}
# A fixed uid and gid, so a bind-mounted /data can be given to them on the host.
RUN groupadd --gid 10025 sandbox \
 && useradd --uid 10025 --gid sandbox --home-dir /data --no-create-home --no-log-init --shell /usr/sbin/nologin sandbox \
 && mkdir /data && chown sandbox:sandbox /data
WORKDIR /app
# What the server reads at run time besides dist/: package.json (it finds its root and version there), the API
# contracts it validates against, and the Elasticsearch templates the cluster profile applies.
COPY --from=build /app/package.json /app/openapi.yaml /app/mailpit-api.yaml ./
COPY --from=build /app/search-mappings ./search-mappings
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/start ./scripts/
COPY --from=build /app/scripts/container/entrypoint ./scripts/container/
# Listens on every container address on the usual ports; the API key, not the bind, guards it, and the publish (-p)
# decides who reaches it. SANDBOX_OPEN_INBOX adds 1025 (Mailpit's SMTP port) for one inbox without credentials.
ENV SANDBOX_DATA_DIR=/data \
    SANDBOX_BIND=0.0.0.0 \
    SANDBOX_HTTP_PORT=8025 \
    SANDBOX_SMTP_PORT=2525 \
    SANDBOX_SMTPS_PORT=2465
VOLUME /data
EXPOSE 8025 2525 2465 1025
USER sandbox
# Ready when every storage component answers (GET /readyz); the cluster profile waits for its services at start.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/src/cli/healthcheck.js"]
# The server drains on SIGTERM: new SMTP sessions refused, messages in flight finished within SANDBOX_SHUTDOWN_GRACE_MS
# (30 s by default; give docker stop's --time more than that).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/app/scripts/container/entrypoint"]
