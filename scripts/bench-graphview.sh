#!/usr/bin/env bash
# The Graph view at 10,000 pages (issue 13, "it stays responsive at 10,000 nodes"): makes a
# 10,000-page workspace with scripts/benchgraph (cached), then measures the view in Debian's
# headless chromium (frontend/e2e/graphperf.mjs): first paint, frame intervals while panning,
# zooming and during the force layout, long tasks, the path shown; each against its bar.
# Prints the load average before and after. Run it under `flock /work/bench.lock`.
#
# Environment (all optional): PAGES=10000 RUNS=2 PROFILE=1 BIN=build/bin/mundaneum
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
PAGES=${PAGES:-10000}
RUNS=${RUNS:-2}
BIN=${BIN:-build/bin/mundaneum}
# benchgraph makes pages = links / (random links per page + 2) = links / 17.
# A cached workspace made by an older schema is made again.
CGO_ENABLED=0 go run ./scripts/benchgraph -links $((PAGES * 17)) -pairs 10 >/dev/null ||
	CGO_ENABLED=0 go run ./scripts/benchgraph -links $((PAGES * 17)) -pairs 10 -regen >/dev/null
db=$(ls -t "${TMPDIR:-/tmp}"/mundaneum-benchgraph/g*-"$PAGES"-8-15-s1.mundaneum | head -1)
echo "bench-graphview: $db, chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}'), load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cd frontend
node e2e/graphperf.mjs --db "$db" --runs "$RUNS" --bin "$repo/$BIN" ${PROFILE:+--profile}
echo "bench-graphview: load after: $(cut -d' ' -f1-3 /proc/loadavg)"
