#!/usr/bin/env bash
# The fresh-machine run: what a new user does, on this machine, with nothing cached.
# A fresh clone of HEAD and an empty home (empty npm cache, empty e2e cache), then, each started
# through npm exactly as the README says:
#   1. `npm test`, killed in the middle of the code-server install (an interrupted first try);
#   2. `npm run demo`, which must reach "MinAgent demo is running" (then it is stopped);
#   3. `npm test`, which must pass.
# Usage: bash scripts/fresh-machine.sh [--strict-allow-scripts]   (logs in the printed folder)
set -euo pipefail
src=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
work=$(mktemp -d /tmp/minagent-fresh-XXXXXX)
export HOME="$work/home"
mkdir -p "$HOME"
[ "${1:-}" = "--strict-allow-scripts" ] && export npm_config_strict_allow_scripts=true
unset MINAGENT_E2E_CACHE MINAGENT_SKIP_E2E
git clone -q "$src" "$work/repo"
cd "$work/repo"
echo "fresh-machine: clone $(git rev-parse --short HEAD) in $work/repo, HOME=$HOME"

echo "fresh-machine: 1. npm test, killed during the code-server install"
setsid npm test >"$work/1-killed.log" 2>&1 &
pid=$!
until grep -q 'installing code-server' "$work/1-killed.log" 2>/dev/null; do
  kill -0 $pid 2>/dev/null || { echo "fresh-machine: npm test ended before the install began"; tail -20 "$work/1-killed.log"; exit 1; }
  sleep 1
done
sleep 20
kill -KILL -- -$pid 2>/dev/null || true
wait $pid 2>/dev/null || true
echo "fresh-machine:    killed; left behind: $(ls "$HOME/.cache/minagent-e2e" | tr '\n' ' ')"

echo "fresh-machine: 2. npm run demo"
setsid npm run demo >"$work/2-demo.log" 2>&1 &
pid=$!
until grep -q 'MinAgent demo is running' "$work/2-demo.log" 2>/dev/null; do
  kill -0 $pid 2>/dev/null || { echo "fresh-machine: npm run demo FAILED"; tail -30 "$work/2-demo.log"; exit 1; }
  sleep 2
done
kill -TERM -- -$pid 2>/dev/null || true
wait $pid 2>/dev/null || true
echo "fresh-machine:    reached \"MinAgent demo is running\""

echo "fresh-machine: 3. npm test"
if npm test >"$work/3-test.log" 2>&1; then
  echo "fresh-machine: PASSED ($(grep -E '^# (pass|fail)' "$work/3-test.log" | tr '\n' ' '))"
else
  echo "fresh-machine: npm test FAILED"; grep -E 'npm test: FAILED|^# (pass|fail)|not ok' "$work/3-test.log" | head -20; exit 1
fi
test -z "$(git status --porcelain)" || { echo "fresh-machine: the test run left the clone dirty:"; git status --porcelain; exit 1; }
echo "fresh-machine: the clone is clean after the run; logs in $work"
