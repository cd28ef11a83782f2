#!/usr/bin/env bash
# The index's floor without its prefix index (issue 30): `mundaneum reindex` of copies of one
# workspace, alternating the build as it is with a measurement build whose page_fts has no
# prefix index (-ldflags -X mundaneum/backend/index.benchNoPrefix=1, backend/index/bench.go,
# an index format of its own). Each run starts from a copy without an index file; CPU is
# user+sys of the process from /usr/bin/time.
#
#   flock /work/bench.lock scripts/index-floor.sh /path/to/b.db     # from the tree's root
#
# Environment (optional): ROUNDS=2 (pairs), PROFILE=DIR (a CPU profile of each run in DIR),
# TMPDIR for the copies (removed after each run).
set -euo pipefail
ws=${1:?usage: index-floor.sh WORKSPACE}
ROUNDS=${ROUNDS:-2}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
[ -d frontend/dist ] || { mkdir -p frontend/dist; touch frontend/dist/.keep; }
CGO_ENABLED=0 go build -o "$bin/with" .
CGO_ENABLED=0 go build -ldflags "-X mundaneum/backend/index.benchNoPrefix=1" -o "$bin/without" .
for r in $(seq "$ROUNDS"); do
  for v in with without; do
    d=$(mktemp -d)
    cp "$ws" "$d/w.db"
    for s in -wal -shm; do [ -f "$ws$s" ] && cp "$ws$s" "$d/w.db$s"; done
    prof=()
    [ -n "${PROFILE:-}" ] && mkdir -p "$PROFILE" && prof=(--cpuprofile "$PROFILE/$v-$r.pprof")
    l0=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S %M" -o "$d/time" "$bin/$v" "${prof[@]}" reindex --db "$d/w.db" >"$d/out" 2>&1
    l1=$(cut -d' ' -f1 /proc/loadavg)
    read -r wall user sys rss <"$d/time"
    rows=$(sed -nE 's/.*rebuilt: ([0-9,]+) .*/\1/p' "$d/out" | tr -d ,)
    size=$(stat -c %s "$d/w.db-index")
    echo "INDEXFLOOR round=$r prefix=$([ $v = with ] && echo 2 || echo none) wall_s=$wall user_s=$user sys_s=$sys cpu_ms_per_row=$(echo "scale=3; ($user + $sys) * 1000 / ${rows:-1}" | bc) rows=${rows:-?} index_bytes=$size rss_kb=$rss load=$l0->$l1 $(date -u +%H:%M:%S)"
    sed -n 1,3p "$d/out" | grep -v '^indexing' || true
    rm -rf "$d"
  done
done
