#!/usr/bin/env bash
# Launch-to-painted time of the real desktop window (issue 4's figure: under 1.5 s on a
# 1,000,000-page workspace). Each run starts the built binary under a virtual X display;
# scripts/paintwatch (Xlib, shared memory: ~2 ms a read) waits for the "Mundaneum" window to
# be mapped, then reads the screen every 4 ms until the page has painted: the mapped window
# before that is one flat colour, the painted page thousands of colours. A run reports when
# the window was mapped and the interval in which the page painted: after the start of the
# last blank read, before the end of the first painted one (a few ms apart). The figure is
# that upper bound. A screenshot taken after it (imagemagick) checks that the page is there.
#
# The app also reports its steps (MUNDANEUM_TRACE_START, app/starttrace.go): the Go program
# runs, the window is made, the workspace is open, the frontend's code runs, the DOM is
# ready, the app is mounted and asks for its data. The window is interactive once it painted
# and the app is mounted: the later of the two is the run's "interactive" figure.
#
# Usage: scripts/bench-window.sh [--runs N] [--db WORKSPACE] [BINARY]
#   (default 5 runs, a new empty workspace each run, build/bin/mundaneum)
# The app opens WORKSPACE for writing (crawls left running are marked interrupted): give it
# a copy of the benchmark workspace, not the one scripts/benchsearch keeps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

painted_colours=200 # the blank window has a few dozen (its edges), the painted page thousands

if [[ "${1:-}" != --inner ]]; then
  runs=5 db= bin=build/bin/mundaneum
  while (($#)); do
    case $1 in
      --runs) runs=$2; shift 2 ;;
      --db) db=$2; shift 2 ;;
      -*) echo "usage: $0 [--runs N] [--db WORKSPACE] [BINARY]" >&2; exit 2 ;;
      *) bin=$1; shift ;;
    esac
  done
  [[ -x "$bin" ]] || { echo "bench-window: $bin is not built (run: make build)" >&2; exit 1; }
  [[ -z "$db" || -f "$db" ]] || { echo "bench-window: no workspace at $db" >&2; exit 1; }
  for tool in xvfb-run import convert; do
    command -v "$tool" >/dev/null || { echo "bench-window: $tool is missing (run: make setup)" >&2; exit 1; }
  done
  export PAINTWATCH=build/paintwatch
  CGO_ENABLED=1 go build -o "$PAINTWATCH" ./scripts/paintwatch ||
    { echo "bench-window: cannot build scripts/paintwatch (needs gcc and libx11-dev, libxext-dev)" >&2; exit 1; }
  exec xvfb-run -a -s '-screen 0 1280x900x24' "$0" --inner "$bin" "$runs" "$db"
fi

bin=$2 runs=$3 db=$4
tmp=$(mktemp -d)
pid=
# stop_app ends the app: asked to quit, then killed if it has not within 10 s (a window
# stuck in its start does not quit).
stop_app() {
  kill "$pid" 2>/dev/null || return 0
  local i
  for i in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
cleanup() {
  [[ -n "$pid" ]] && stop_app
  rm -rf "$tmp"
}
trap cleanup EXIT

now_ms() { echo $(($(date +%s%N) / 1000000)); }
colours() { import -window root miff:- 2>/dev/null | convert miff:- -format '%k' info:; }

painted=() ready=()
for run in $(seq 1 "$runs"); do
  # WebKit keeps its own data beside the workspace: a fresh, throw-away one each run.
  rm -rf "$tmp/xdg"
  export XDG_DATA_HOME=$tmp/xdg/data XDG_CONFIG_HOME=$tmp/xdg/config XDG_CACHE_HOME=$tmp/xdg/cache
  ws=${db:-$tmp/empty-$run.mundaneum}
  # The watcher connects to the display before the launch, so that its start is not timed.
  "$PAINTWATCH" -colours "$painted_colours" >"$tmp/paint.log" 2>&1 &
  watch=$!
  until grep -qs '^ready ' "$tmp/paint.log"; do
    kill -0 "$watch" 2>/dev/null || { cat "$tmp/paint.log" >&2; exit 1; }
    sleep 0.01
  done
  start=$(now_ms)
  MUNDANEUM_TRACE_START=1 "$bin" --db "$ws" >"$tmp/app.log" 2>&1 &
  pid=$!
  if ! wait "$watch"; then
    cat "$tmp/paint.log" "$tmp/app.log" >&2
    echo "bench-window: no painted window (above: the watcher's and the app's output)" >&2
    exit 1
  fi
  at() { awk -v s="$start" -v w="$1" '$1 == w { print $2 - s }' "$tmp/paint.log"; }
  mapped=$(at mapped) blank=$(at blank) done_ms=$(at painted)
  c=$(awk '$1 == "blank" { print $3 }' "$tmp/paint.log")
  # The watcher's verdict, checked by a screenshot of another tool.
  shot=$(colours)
  ((shot >= painted_colours)) || { echo "bench-window: the watcher saw a paint the screenshot does not show ($shot colours)" >&2; exit 1; }
  # The app mounts before it paints: wait for its step, then read them all.
  until grep -q ' app-mounted$' "$tmp/app.log" || (($(now_ms) - start > 20000)); do sleep 0.02; done
  # The page reports its own steps after its first frame (a build from before 2026-11-27
  # does not): give them a second.
  waited=$(now_ms)
  until grep -q ' js-first-frame$' "$tmp/app.log" || (($(now_ms) - waited > 1000)); do sleep 0.02; done
  steps=$(awk -v s="$start" '$1 == "start-trace" { print $2 - s, $3 }' "$tmp/app.log" | sort -n -s -k1,1 |
    awk '{ printf "%s %d, ", $2, $1 }')
  mounted=$(awk -v s="$start" '$1 == "start-trace" && $3 == "app-mounted" { print $2 - s }' "$tmp/app.log")
  interactive=$((done_ms > ${mounted:-0} ? done_ms : ${mounted:-0}))
  echo "run $run: window mapped at $mapped ms, page painted between $blank ($c colours) and $done_ms ms; ${steps}interactive $interactive ms"
  painted+=("$done_ms")
  ready+=("$interactive")
  stop_app
  pid=
done

summary() { # summary WHAT VALUES...
  local what=$1
  shift
  local sorted n
  sorted=$(printf '%s\n' "$@" | sort -n)
  n=$#
  echo "$what: p50 $(sed -n "$(((n + 1) / 2))p" <<<"$sorted") ms, max $(tail -n 1 <<<"$sorted") ms over $n runs (${db:-new empty workspaces})"
}
summary "launch → painted window" "${painted[@]}"
summary "launch → interactive window (painted, app mounted)" "${ready[@]}"
