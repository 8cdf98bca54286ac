#!/usr/bin/env bash
# Runs a command against a throwaway Errand in test mode (docs/integrate.md, Testing your integration in CI): starts
# errandd in the background on a fresh data directory, mints a test-mode key (ek_test_...), runs the command with
# ERRAND_API_URL and ERRAND_API_KEY set, and stops the daemon, whatever the command did. No model key is needed: a
# test-mode run calls no model and starts no browser. Exits with the command's status.
#
#   ERRAND_DIR=./errand ./errand/docs/ci/with-errand-test-mode.sh npm test
#
# ERRAND_DIR: the built Errand checkout (default: the one holding this script). ERRAND_PORT: default 7370.
# ERRAND_HOME: the data directory (default: a new temporary one). Needs bash, node, curl.
set -euo pipefail

errand_dir="${ERRAND_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
port="${ERRAND_PORT:-7370}"
export ERRAND_HOME="${ERRAND_HOME:-$(mktemp -d)}"
export ERRAND_API_URL="http://127.0.0.1:${port}"
errand() { node "${errand_dir}/bin/errand" "$@"; }

errand daemon start --port "${port}" >/dev/null
trap 'errand daemon stop >/dev/null 2>&1 || true' EXIT
for _ in $(seq 1 60); do
  curl -fsS "${ERRAND_API_URL}/healthz" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "${ERRAND_API_URL}/healthz" >/dev/null || { echo "errandd did not answer; its log: ${ERRAND_HOME}/errandd.log" >&2; exit 1; }

key="$(errand --json keys create --test --name ci | node -e 'let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => console.log(JSON.parse(s).key))')"
# Masked in a GitHub Actions log; harmless anywhere else.
if [ -n "${GITHUB_ACTIONS:-}" ]; then echo "::add-mask::${key}"; fi
export ERRAND_API_KEY="${key}"

set +e
"$@"
status=$?
set -e
exit "${status}"
