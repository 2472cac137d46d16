#!/usr/bin/env bash
# Makes a PostgreSQL server available for the tests and prints its admin URL on stdout.
# Uses TEST_DATABASE_URL when given; else Debian's postgresql (installed when missing),
# started here if it is not running. Logs go to stderr.
set -euo pipefail
log() { echo "[postgres] $*" >&2; }
if [ -n "${TEST_DATABASE_URL:-}" ]; then echo "$TEST_DATABASE_URL"; exit 0; fi

PORT=${CS_TEST_PG_PORT:-5432}
URL="postgres://countersign:countersign@127.0.0.1:${PORT}/postgres"
# The client (psql, pg_ctlcluster) may be present without the server: look for the server.
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  log "installing Debian's postgresql (apt-get)…"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq >&2 || log "apt-get update failed; trying the install anyway"
  $SUDO apt-get install -y -qq postgresql >&2
fi

if ! pg_isready -h 127.0.0.1 -p "$PORT" -q 2>/dev/null; then
  log "starting PostgreSQL on port $PORT…"
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -n "$(pg_lsclusters -h 2>/dev/null | head -1)" ]; then
    read -r VER NAME _ < <(pg_lsclusters -h | head -1)
    pg_ctlcluster "$VER" "$NAME" start >&2 || true
  else
    service postgresql start >&2 || true
  fi
  for _ in $(seq 1 60); do pg_isready -h 127.0.0.1 -p "$PORT" -q 2>/dev/null && break; sleep 0.5; done
fi
pg_isready -h 127.0.0.1 -p "$PORT" -q || { log "PostgreSQL did not come up on port $PORT"; exit 1; }

# A login role that may create the per-test-file databases.
run_psql() { if [ "$(id -u)" -eq 0 ]; then su postgres -c "psql -qAt -p $PORT $*"; else sudo -u postgres psql -qAt -p "$PORT" "$@"; fi; }
if [ "$(run_psql "-c \"select 1 from pg_roles where rolname='countersign'\"")" != "1" ]; then
  run_psql "-c \"create role countersign login createdb password 'countersign'\"" >&2
fi
echo "$URL"
