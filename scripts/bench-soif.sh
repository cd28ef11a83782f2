#!/usr/bin/env bash
# SOIF exchange benchmark (issue 14): crawls a synthetic web of PAGES pages
# (../shared/bench/synthweb on loopback) into workspace A once, then times
#   1. mundaneum export --format soif          (templates/s, MB/s of SOIF written)
#   2. a first full pull of A's summaries into workspace B through A's serve
#      (templates/s, MB/s of SOIF and of gzip on the wire)
#   3. a second pull with nothing changed (the incremental case: 0 templates)
# and prints one machine-readable line per figure (`BENCH key=value ...`). The crawl is
# set-up, not timed. Run it under `flock /work/bench.lock` (make bench-soif does).
#
# Environment (all optional): PAGES=3000, BENCH_DIR=../shared/bench, KEEP=DIR.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAGES=${PAGES:-3000}
BENCH_DIR=${BENCH_DIR:-$repo/../shared/bench}
[ -d "$BENCH_DIR/synthweb" ] || BENCH_DIR=/work/shared/bench
cd "$repo"
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap cleanup EXIT
[ -d frontend/dist ] || { mkdir -p frontend/dist; touch frontend/dist/.keep; }
[ -f frontend/dist/index.html ] || { echo "bench-soif: serve needs the built frontend: make frontend" >&2; exit 1; }
CGO_ENABLED=0 go build -o "$work/mundaneum" .
(cd "$BENCH_DIR/synthweb" && CGO_ENABLED=0 go build -o "$work/synthweb" .)
m="$work/mundaneum"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$work/synthweb" -pages "$PAGES" -hosts 1 -listen "127.0.0.1:$port" >"$work/synthweb.log" 2>&1 &
pids+=($!)
sleep 1
a="$work/a.mundaneum" b="$work/b.mundaneum"
rm -f "$a"* "$b"*
echo "bench-soif: crawling $PAGES synthetic pages into A (set-up, not timed)"
"$m" crawl --db "$a" --scope site --delay 0 --json "http://127.0.0.1:$port/" >"$work/crawl.json" 2>/dev/null
load() { cut -d' ' -f1-3 /proc/loadavg; }
secs() { python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$1" "$2"; }

echo "bench-soif: export, load $(load)"
t0=$(date +%s.%N)
"$m" export --db "$a" --format soif --json "$work/a.soif" >"$work/export.json"
t1=$(date +%s.%N)
python3 - "$work/export.json" "$(secs "$t0" "$t1")" "$(load)" <<'PY'
import json, sys
r, s, load = json.load(open(sys.argv[1])), float(sys.argv[2]), sys.argv[3]
n, b = r["records"], r["bytes"]
print(f"export: {n} templates, {b/2**20:.1f} MiB in {s:.2f} s: {n/s:.0f} templates/s, {b/s/2**20:.1f} MiB/s (load after {load})")
print(f"BENCH soif_export templates={n} mib={b/2**20:.1f} seconds={s:.2f} templates_per_s={n/s:.0f} mib_per_s={b/s/2**20:.1f}")
PY

token=$("$m" token issue --db "$a" bench 2>/dev/null)
"$m" serve --db "$a" --json >"$work/serve.json" 2>"$work/serve.err" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/serve.json" ] && break; sleep 0.2; done
url=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"])' "$work/serve.json")
"$m" source add --db "$b" "$url" --token "$token" >/dev/null
for run in first second; do
  echo "bench-soif: $run pull, load $(load)"
  t0=$(date +%s.%N)
  "$m" source pull --db "$b" --json >"$work/pull-$run.json"
  t1=$(date +%s.%N)
  python3 - "$work/pull-$run.json" "$(secs "$t0" "$t1")" "$(load)" "$run" <<'PY'
import json, sys
r, s, load, run = json.load(open(sys.argv[1]))["pulls"][0], float(sys.argv[2]), sys.argv[3], sys.argv[4]
n, b, w = r["templates"], r["bytes"], r.get("wireBytes", 0)
print(f"{run} pull: {n} templates ({r['applied']} applied), {b/2**20:.2f} MiB SOIF, {w/2**20:.2f} MiB gzip on the wire, "
      f"{s:.2f} s (until searchable): {n/s:.0f} templates/s, {b/s/2**20:.1f} MiB/s (load after {load})")
print(f"BENCH soif_pull_{run} templates={n} applied={r['applied']} mib={b/2**20:.2f} wire_mib={w/2**20:.2f} seconds={s:.2f} "
      f"templates_per_s={n/s:.0f} mib_per_s={b/s/2**20:.1f}")
PY
done
