#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the zoneward/postgres tests and bench.
#
#   eval "$(scripts/pg-test-cluster.sh start)"   # prints: export ZONEWARD_PG_URL=... ; export ZONEWARD_PG_DIR=...
#   scripts/pg-test-cluster.sh stop [dir]         # dir defaults to $ZONEWARD_PG_DIR
#
# `start` installs Debian's postgresql with apt-get only when initdb/pg_ctl cannot be found,
# creates a cluster in a fresh temp directory owned by an unprivileged user (PostgreSQL refuses
# to run as root, and CI runs as root), listens on 127.0.0.1 only, on a free port, with trust
# authentication (it is local and thrown away), and tuned for tests rather than durability.
# Everything but the export lines goes to stderr, so `eval "$(... start)"` is safe.
set -euo pipefail

log() { printf 'pg-test-cluster: %s\n' "$*" >&2; }

find_bin_dir() {
  # PATH may hold only symlinks to a few tools (initdb, pg_ctl): use the directory they point into,
  # which has createdb too.
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then
    dirname "$(readlink -f "$(command -v pg_ctl)")"
    return 0
  fi
  # Debian keeps the server binaries out of PATH, one directory per major version; take the newest.
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -n "$d" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ]; then
    echo "$d"
    return 0
  fi
  return 1
}

# Runs a command as the unprivileged cluster owner when we are root, as ourselves otherwise.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$OWNER" -- "$@"
  else
    "$@"
  fi
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
}

start() {
  local bin
  if ! bin=$(find_bin_dir); then
    if [ "$(id -u)" -ne 0 ]; then
      log "initdb/pg_ctl not found and not root: install PostgreSQL (Debian: apt-get install postgresql)"
      exit 1
    fi
    log "initdb/pg_ctl not found: apt-get install postgresql"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null) >&2
    bin=$(find_bin_dir) || { log "postgresql installed but pg_ctl/initdb still not found"; exit 1; }
  fi

  OWNER=$(id -un)
  if [ "$(id -u)" -eq 0 ]; then
    OWNER=postgres
    if ! id -u "$OWNER" >/dev/null 2>&1; then
      log "creating system user $OWNER"
      useradd --system --no-create-home --shell /usr/sbin/nologin "$OWNER"
    fi
  fi

  local dir port
  dir=$(mktemp -d "${TMPDIR:-/tmp}/zoneward-pg.XXXXXX")
  chmod 755 "$dir"
  mkdir "$dir/data" "$dir/run"
  [ "$(id -u)" -eq 0 ] && chown -R "$OWNER" "$dir"
  port=$(free_port)

  log "initdb in $dir/data (owner $OWNER, binaries $bin)"
  as_owner "$bin/initdb" -D "$dir/data" -U zoneward --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || as_owner "$bin/initdb" -D "$dir/data" -U zoneward --auth=trust --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }

  # fsync off and friends: a crash loses a cluster that is thrown away anyway, and the tests run
  # many small commits. max_connections covers two test processes with their pools.
  as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -p $port -k $dir/run -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=128MB" >&2 \
    || { cat "$dir/server.log" >&2; exit 1; }

  if ! as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U zoneward zoneward >&2; then
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
    rm -rf "$dir"
    exit 1
  fi
  log "running on 127.0.0.1:$port (stop with: $0 stop $dir)"
  echo "export ZONEWARD_PG_URL=postgres://zoneward@127.0.0.1:$port/zoneward"
  echo "export ZONEWARD_PG_DIR=$dir"
}

stop() {
  local dir=${1:-${ZONEWARD_PG_DIR:-}}
  if [ -z "$dir" ] || [ ! -d "$dir/data" ]; then
    log "no cluster directory given (argument or ZONEWARD_PG_DIR)"
    exit 1
  fi
  local bin
  bin=$(find_bin_dir) || { log "pg_ctl not found"; exit 1; }
  OWNER=$(stat -c %U "$dir/data")
  if [ "$(id -u)" -ne 0 ] && [ "$OWNER" != "$(id -un)" ]; then
    log "$dir belongs to $OWNER"
    exit 1
  fi
  as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || log "pg_ctl stop failed (already stopped?)"
  rm -rf "$dir"
  log "stopped and removed $dir"
}

case "${1:-}" in
  start) start ;;
  stop) shift; stop "${1:-}" ;;
  *) echo "usage: $0 start | stop [dir]" >&2; exit 2 ;;
esac
