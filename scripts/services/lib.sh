# shellcheck shell=bash
# Shared settings and helpers for scripts/services/{up,down,status}.
# Sourced, never run. Everything here binds to 127.0.0.1 only.

set -o pipefail

SERVICES_SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERVICES_REPO_ROOT="$(cd "$SERVICES_SCRIPT_DIR/../.." && pwd)"

# --- where things live ------------------------------------------------------
# Data and logs of running services: git-ignored, inside the work tree.
SERVICES_DATA_DIR="${SERVICES_DATA_DIR:-$SERVICES_REPO_ROOT/.services}"
# Downloads and builds: outside the work tree, shared by every checkout.
SERVICES_CACHE_DIR="${SERVICES_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/mail-sandbox}"
SERVICES_M2_REPO="${SERVICES_M2_REPO:-${HOME:-/tmp}/.m2/repository}"

# --- pinned versions ---------------------------------------------------------
# Elasticsearch: the distribution Elastic publishes on Maven Central
# (org.elasticsearch.distribution.integ-test-zip:elasticsearch). See README.md
# for why this and not org.codelibs:elasticsearch-cluster-runner.
ES_VERSION="8.19.21"
ES_ARTIFACT="org.elasticsearch.distribution.integ-test-zip:elasticsearch:${ES_VERSION}:zip"
# MinIO: last commit of github.com/minio/minio (repository archived; its code is
# that of RELEASE.2025-10-15T17-29-55Z plus notices). The Go module proxy here
# answers 403 for the release tag's own pseudo-version, so this one is pinned.
MINIO_MODULE="github.com/minio/minio"
MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"

# --- ports and settings (override with the environment) ----------------------
REDIS_PORT="${SERVICES_REDIS_PORT:-6380}"
ES_HTTP_PORT="${SERVICES_ES_PORT:-9200}"
ES_TRANSPORT_PORT="${SERVICES_ES_TRANSPORT_PORT:-9300}"
ES_HEAP="${SERVICES_ES_HEAP:-1g}"
ES_NODES="${SERVICES_ES_NODES:-1}"
MINIO_PORT="${SERVICES_MINIO_PORT:-9000}"
MINIO_CONSOLE_PORT="${SERVICES_MINIO_CONSOLE_PORT:-9001}"
SPAMD_PORT="${SERVICES_SPAMD_PORT:-7830}"
# Fixed development credentials (documented in the README.md beside this script; loopback only).
MINIO_ACCESS_KEY="sandbox"
MINIO_SECRET_KEY="sandbox-secret-key"
SERVICES_TIMEOUT="${SERVICES_TIMEOUT:-240}"

ALL_SERVICES=(redis elasticsearch minio spamd)

REDIS_DIR="$SERVICES_DATA_DIR/redis"
ES_DIR="$SERVICES_DATA_DIR/elasticsearch"
MINIO_DIR="$SERVICES_DATA_DIR/minio"
SPAMD_DIR="$SERVICES_DATA_DIR/spamd"

ES_HOME="$SERVICES_CACHE_DIR/elasticsearch/elasticsearch-$ES_VERSION"
MINIO_BIN="$SERVICES_CACHE_DIR/minio/$MINIO_VERSION/minio"
# Debian's Chromium, which the browser tests drive (a tool, not a service: only `up chromium` installs it, nothing runs).
CHROMIUM_BIN="/usr/bin/chromium"
# SpamAssassin's rules as the Debian package ships them; sa-update's downloads (under /var/lib) are never used.
SPAMD_RULES_DIR="/usr/share/spamassassin"

# --- output --------------------------------------------------------------------
say()  { printf '%s\n' "$*"; }
info() { printf '[services] %s\n' "$*" >&2; }
warn() { printf '[services] WARNING: %s\n' "$*" >&2; }
die()  { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# tail of a log file, indented, for failure messages
log_tail() {
  local file="$1" n="${2:-40}"
  if [[ -s "$file" ]]; then
    printf '[services] --- last %s lines of %s ---\n' "$n" "$file" >&2
    tail -n "$n" "$file" | sed 's/^/    /' >&2
    printf '[services] --- end of %s ---\n' "$file" >&2
  else
    printf '[services] (log %s is empty or missing)\n' "$file" >&2
  fi
}

# --- processes -----------------------------------------------------------------
# pid_alive PIDFILE PATTERN: prints the pid and succeeds when the pidfile names
# a live process whose command line contains PATTERN (guards against pid reuse).
pid_alive() {
  local pidfile="$1" pattern="$2" pid
  [[ -s "$pidfile" ]] || return 1
  pid="$(tr -dc '0-9' < "$pidfile")"
  [[ -n "$pid" && -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "$pattern" || return 1
  printf '%s' "$pid"
}

# stop_pid PIDFILE PATTERN NAME [SECONDS]: TERM, wait, then KILL. Idempotent.
stop_pid() {
  local pidfile="$1" pattern="$2" name="$3" wait_s="${4:-30}" pid i
  if ! pid="$(pid_alive "$pidfile" "$pattern")"; then
    rm -f "$pidfile"
    return 1
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < wait_s * 10; i++)); do
    [[ -d "/proc/$pid" ]] || break
    sleep 0.1
  done
  if [[ -d "/proc/$pid" ]]; then
    warn "$name (pid $pid) did not stop within ${wait_s}s; sending KILL"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$pidfile"
  return 0
}

# port_in_use PORT: something accepts connections on 127.0.0.1:PORT
port_in_use() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# who_listens PORT: a short description of the listener, if ss can tell
who_listens() {
  command -v ss >/dev/null 2>&1 || return 0
  ss -Htlnp "sport = :$1" 2>/dev/null | sed -n 's/.*users:((\(.*\)))/\1/p' | head -n 1
}

require_free_port() {
  local port="$1" service="$2" var="$3" who
  if port_in_use "$port"; then
    who="$(who_listens "$port")"
    die "$service: port 127.0.0.1:$port is already taken${who:+ by $who}, and not by a service of ours. Stop that process or choose another port with $var=PORT (the app then needs the matching SANDBOX_* URL)."
  fi
}

# --- health checks -------------------------------------------------------------
redis_healthy() {
  if command -v redis-cli >/dev/null 2>&1; then
    [[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == "PONG" ]]
  else
    local reply
    reply="$(exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT" && printf 'PING\r\n' >&3 && timeout 2 head -c 7 <&3)" 2>/dev/null
    [[ "$reply" == "+PONG"* ]]
  fi
}

es_url() { printf 'http://127.0.0.1:%s' "$ES_HTTP_PORT"; }

# es_healthy [NODES] [WAIT]: cluster is yellow or green with NODES nodes
es_healthy() {
  local nodes="${1:-}" wait="${2:-1s}" body
  body="$(curl -fsS --max-time 30 "$(es_url)/_cluster/health?wait_for_status=yellow&timeout=$wait${nodes:+&wait_for_nodes=$nodes}" 2>/dev/null)" || return 1
  grep -q '"timed_out":false' <<<"$body" || return 1
  grep -Eq '"status":"(yellow|green)"' <<<"$body"
}

minio_healthy() {
  curl -fsS --max-time 5 -o /dev/null "http://127.0.0.1:$MINIO_PORT/minio/health/live" 2>/dev/null
}

# spamd answers the SPAMC protocol's PING with "SPAMD/1.5 0 PONG"
spamd_healthy() {
  local reply
  reply="$(exec 3<>"/dev/tcp/127.0.0.1/$SPAMD_PORT" && printf 'PING SPAMC/1.5\r\n\r\n' >&3 && timeout 2 head -c 32 <&3)" 2>/dev/null
  [[ "$reply" == SPAMD/*" 0 PONG"* ]]
}

# --- Elasticsearch topology ------------------------------------------------------
es_topology_dir() { printf '%s/nodes-%s' "$ES_DIR" "$1"; }
es_running_nodes_file() { printf '%s/running-nodes' "$ES_DIR"; }

# es_running_topology: prints the node count of the running cluster (from the
# file `up` wrote), or fails when no node of ours is alive.
es_running_topology() {
  local f n i any=1
  f="$(es_running_nodes_file)"
  [[ -s "$f" ]] || return 1
  n="$(tr -dc '0-9' < "$f")"
  [[ -n "$n" ]] || return 1
  for ((i = 1; i <= n; i++)); do
    if pid_alive "$(es_topology_dir "$n")/es-$i/es.pid" org.elasticsearch >/dev/null; then any=0; fi
  done
  ((any == 0)) || return 1
  printf '%s' "$n"
}

# --- environment for the app -------------------------------------------------------
print_env() {
  cat <<EOF
export SANDBOX_ELASTICSEARCH_URL=$(es_url)
export SANDBOX_REDIS_URL=redis://127.0.0.1:$REDIS_PORT
export SANDBOX_S3_URL=http://127.0.0.1:$MINIO_PORT
export SANDBOX_S3_ACCESS_KEY=$MINIO_ACCESS_KEY
export SANDBOX_S3_SECRET_KEY=$MINIO_SECRET_KEY
export SANDBOX_SPAMD_URL=127.0.0.1:$SPAMD_PORT
EOF
}

# parse_service_args ARGS...: sets SELECTED (array) and handles --es-nodes.
# Unknown options are left in EXTRA_ARGS for the caller.
parse_service_args() {
  SELECTED=()
  EXTRA_ARGS=()
  while (($#)); do
    case "$1" in
      --es-nodes) [[ $# -ge 2 ]] || die "--es-nodes needs a number"; ES_NODES="$2"; shift 2 ;;
      --es-nodes=*) ES_NODES="${1#*=}"; shift ;;
      redis|elasticsearch|minio|spamd|chromium) SELECTED+=("$1"); shift ;;
      es) SELECTED+=(elasticsearch); shift ;;
      s3) SELECTED+=(minio); shift ;;
      *) EXTRA_ARGS+=("$1"); shift ;;
    esac
  done
  ((${#SELECTED[@]})) || SELECTED=("${ALL_SERVICES[@]}")
  [[ "$ES_NODES" =~ ^[1-9]$ ]] || die "--es-nodes / SERVICES_ES_NODES must be 1 to 9 (got '$ES_NODES'); 1 and 3 are the tested values"
}

selected() {
  local s
  for s in "${SELECTED[@]}"; do [[ "$s" == "$1" ]] && return 0; done
  return 1
}
