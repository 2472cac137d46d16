#!/usr/bin/env bash
# The main job (npm start): installs what is missing, then brings up the Temporal dev server,
# the embedded database, a worker, and runs the sample workload. Ctrl-C stops it all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
exec npx tsx scripts/start.ts "$@"
