#!/usr/bin/env bash
# The window on a workspace another process holds (issue 28, item 7): starts `serve` on a
# throw-away workspace, then the window on the same workspace under a virtual X display, and
# checks that the window opens (it used to exit with code 4 and a line on stderr), that its
# title says the workspace is in use, and that its page painted (screenshot build/held.png).
# Then it stops serve and checks that the window opened the workspace by itself: its title
# is "Mundaneum" again and the workspace's lock records the window's process.
#
# Usage: scripts/smoke-held.sh [BINARY]    (default build/bin/mundaneum)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

wait_s=${SMOKE_WAIT:-30}             # seconds for each step (a failure's bound, not a delay)
min_colours=${SMOKE_MIN_COLOURS:-24} # a blank window has a handful
out=build/held.png

if [[ "${1:-}" != --inner ]]; then
  bin=${1:-build/bin/mundaneum}
  [[ -x "$bin" ]] || { echo "smoke-held: $bin is not built (run: make build)" >&2; exit 1; }
  for tool in xvfb-run xauth xdotool import convert; do
    command -v "$tool" >/dev/null || { echo "smoke-held: $tool is missing (run: make setup)" >&2; exit 1; }
  done
  exec xvfb-run -a -s '-screen 0 1280x900x24' "$0" --inner "$bin"
fi

bin=$2
tmp=$(mktemp -d)
ws=$tmp/held.mundaneum
serve_pid= win_pid=
stop() { # stop pid: SIGTERM, then SIGKILL if it lingers
  local pid=$1
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
}
cleanup() {
  stop "$win_pid"
  stop "$serve_pid"
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "smoke-held: FAIL: $*" >&2
  for f in serve window; do
    [[ -s "$tmp/$f.log" ]] && { echo "--- $f log (last 20 lines) ---" >&2; tail -n 20 "$tmp/$f.log" >&2; }
  done
  exit 1
}
# until_ok SECONDS WHAT COMMAND...: polls COMMAND until it succeeds.
until_ok() {
  local secs=$1 what=$2
  shift 2
  for _ in $(seq 1 $((secs * 10))); do
    "$@" && return 0
    sleep 0.1
  done
  fail "$what: not after ${secs}s"
}
holder_pid() { grep -o '"pid":[0-9]*' "$ws.lock" 2>/dev/null | cut -d: -f2; }
alive() { kill -0 "$1" 2>/dev/null; }

export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache

# 1. serve holds the workspace.
"$bin" serve --db "$ws" >"$tmp/serve.log" 2>&1 &
serve_pid=$!
until_ok "$wait_s" "serve holds $ws" eval '[[ "$(holder_pid)" == "$serve_pid" ]]'

# 2. The window starts on it, stays up, and says it is in use.
"$bin" --db "$ws" >"$tmp/window.log" 2>&1 &
win_pid=$!
title="Mundaneum: $(basename "$ws") is in use"
win=
find_held() {
  alive "$win_pid" || fail "the window exited instead of saying who holds the workspace"
  win=$(xdotool search --onlyvisible --name "^$title\$" 2>/dev/null | head -n 1)
  [[ -n "$win" ]]
}
until_ok "$wait_s" "a window titled '$title'" find_held
echo "smoke-held: the window is up and titled '$title'"

painted() {
  import -window root "$tmp/shot.png"
  (($(convert "$tmp/shot.png" -format '%k' info:) >= min_colours))
}
until_ok "$wait_s" "the held view painted" painted
mkdir -p "$(dirname "$out")"
cp "$tmp/shot.png" "$out"
echo "smoke-held: painted ($out)"

# 3. serve stops: the window opens the workspace by itself.
kill -INT "$serve_pid"
until_ok "$wait_s" "serve stopped" eval '! alive "$serve_pid"'
serve_pid=
until_ok "$wait_s" "the window holds the workspace" eval '[[ "$(holder_pid)" == "$win_pid" ]]'
until_ok "$wait_s" "the window titled 'Mundaneum' again" eval 'xdotool search --onlyvisible --name "^Mundaneum\$" >/dev/null 2>&1'
alive "$win_pid" || fail "the window exited after opening the workspace"
echo "smoke-held: OK: the window waited for serve and opened the workspace when it was free"
