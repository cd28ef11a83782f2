#!/usr/bin/env bash
# Smoke test of the real desktop window: starts the built binary on a throw-away workspace
# under a virtual X display, waits for the "Mundaneum" window, screenshots the screen to
# build/smoke.png and fails if the window never appears, the app dies, or the screenshot is
# blank. WebKitGTK cannot be driven by WebDriver, so this is as far as native checks go; the
# UI itself is tested in a browser.
#
# Usage: [SMOKE_OUT=PNG] [SMOKE_ARG=path] scripts/smoke-window.sh [BINARY]    (default build/bin/mundaneum)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

wait_window_s=${SMOKE_WAIT_WINDOW:-20} # seconds for the window to be mapped
wait_paint_s=${SMOKE_WAIT_PAINT:-20}   # further seconds for the page to paint
min_colours=${SMOKE_MIN_COLOURS:-24}   # a blank or half-drawn window has a handful
out=${SMOKE_OUT:-build/smoke.png}     # where the screenshot goes
# SMOKE_ARG=path gives the workspace as the one argument, as a file manager does (else --db).

if [[ "${1:-}" != --inner ]]; then
  bin=${1:-build/bin/mundaneum}
  [[ -x "$bin" ]] || { echo "smoke-window: $bin is not built (run: make build)" >&2; exit 1; }
  for tool in xvfb-run xauth xdotool import convert; do
    command -v "$tool" >/dev/null || { echo "smoke-window: $tool is missing (run: make setup)" >&2; exit 1; }
  done
  # xvfb-run -a picks a free display number; the inner half runs on that display.
  exec xvfb-run -a -s '-screen 0 1280x900x24' "$0" --inner "$bin"
fi

bin=$2
tmp=$(mktemp -d)
log=$tmp/app.log
pid=
cleanup() {
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
  echo "smoke-window: FAIL: $*" >&2
  echo "--- app log (last 40 lines) ---" >&2
  tail -n 40 "$log" >&2 || true
  exit 1
}

# WebKit keeps its own data (HSTS, storage) beside the workspace: keep both throw-away.
export XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config XDG_CACHE_HOME=$tmp/cache
start=$(date +%s.%N)
if [[ "${SMOKE_ARG:-}" == path ]]; then
  "$bin" "$tmp/smoke.mundaneum" >"$log" 2>&1 &
else
  "$bin" --db "$tmp/smoke.db" >"$log" 2>&1 &
fi
pid=$!

elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

# 1. The window is mapped.
win=
for _ in $(seq 1 $((wait_window_s * 4))); do
  kill -0 "$pid" 2>/dev/null || fail "the app exited before its window appeared"
  win=$(xdotool search --onlyvisible --name '^Mundaneum$' 2>/dev/null | head -n 1 || true)
  [[ -n "$win" ]] && break
  sleep 0.25
done
[[ -n "$win" ]] || fail "no window named Mundaneum after ${wait_window_s}s"
echo "smoke-window: window $win mapped after $(elapsed)s"

# 2. The page has painted: the screenshot has real content, not a flat background.
mkdir -p "$(dirname "$out")"
colours=0
for _ in $(seq 1 "$wait_paint_s"); do
  sleep 1
  kill -0 "$pid" 2>/dev/null || fail "the app exited after its window appeared"
  import -window root "$tmp/shot.png"
  colours=$(convert "$tmp/shot.png" -format '%k' info:)
  if ((colours >= min_colours)); then
    # painted: give it a moment to settle, then keep that picture
    sleep 1
    import -window root "$tmp/shot.png"
    colours=$(convert "$tmp/shot.png" -format '%k' info:)
    break
  fi
done
cp "$tmp/shot.png" "$out"
((colours >= min_colours)) || fail "screenshot $out has only $colours colours after ${wait_paint_s}s: blank window?"
geometry=$(xdotool getwindowgeometry "$win" | awk '/Geometry/ { print $2 }')
echo "smoke-window: OK: window ${geometry}, screenshot $out with $colours colours after $(elapsed)s"
