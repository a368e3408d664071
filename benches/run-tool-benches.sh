#!/usr/bin/env bash
# Runs the tool and render benchmarks in release mode and prints the budget verdicts.
# Installs ripgrep first (only for the search_files vs rg comparison); CI does not run this.
# Extra arguments go to criterion, e.g. `benches/run-tool-benches.sh search_files`.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v rg >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
    $SUDO apt-get update && $SUDO apt-get install -y ripgrep || echo "could not install ripgrep: the rg comparison is skipped" >&2
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
for bench in tools render; do
    cargo bench --bench "$bench" -- "$@" 2>&1 | tee -a "$log" || status=$?
done
echo
echo "== budgets =="
grep '^budget ' "$log" || echo "(no budget lines: did the criterion filter skip every bench?)"
exit "$status"
