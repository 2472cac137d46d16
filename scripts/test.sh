#!/usr/bin/env bash
# The test command (npm test, and .ci/run): installs what is missing; jest's global setup
# (test/support/global-setup.ts) starts the embedded PostgreSQL and the Temporal dev server and
# stops them. TEST_DATABASE_URL selects another PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
bash scripts/bootstrap.sh --with-test-server
export TEMPORAL_TEST_SERVER="${TEMPORAL_TEST_SERVER:-$PWD/.tools/bin/temporal-test-server}"
export TEMPORAL_CLI="${TEMPORAL_CLI:-$(npx tsx -e "console.log(require('./scripts/lib/temporal-binaries').findBinary(require('./scripts/lib/temporal-binaries').TEMPORAL_CLI, {install:false}))")}"
set +e
# Static checks first when running the whole suite: types (jest only strips them, with SWC), lint
# (floating promises, workflow sandbox rules), formatting.
if [ $# -eq 0 ]; then
  echo "[test] typecheck, lint, format"
  # Three independent single-threaded checks: side by side on the machine's cores.
  npx tsc --noEmit -p tsconfig.json & tsc_pid=$!
  npx eslint . & eslint_pid=$!
  npx prettier --check . --log-level warn & prettier_pid=$!
  static=0
  for pid in $tsc_pid $eslint_pid $prettier_pid; do wait $pid || static=1; done
  [ $static -ne 0 ] && { echo "[test] static checks failed"; exit $static; }
  echo "[test] static checks passed in $(( $(date +%s) - started ))s"

fi
# --forceExit: a test file that leaves a handle open must not hold the run open after the
# tally is printed; a jest that never exited cost a whole CI run (its 5,400 s). Leaks still
# show: jest names them ("did not exit one second after the test run").
npx jest --ci --forceExit "$@"
status=$?
set -e
echo "[test] finished in $(( $(date +%s) - started ))s (exit $status)"
exit $status
