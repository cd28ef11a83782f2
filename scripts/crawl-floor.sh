#!/usr/bin/env bash
# The crawl's floor (issue 30): G-crawl-speed's run (../shared/acceptance/G-crawl-speed, the
# same synthetic web, Colly and crawl command) with the crawl's process measured, and, with
# HOLD=1, a measurement build whose index stage does no work until the crawl's end waits for
# it (-ldflags -X mundaneum/backend/index.benchHold=1, backend/index/bench.go): the crawl
# alone, then the index catching up.
#
# Run from the root of the tree to build (main's tree for the A of an A/B: the switch is not
# there, so HOLD=1 builds main as it is), under `flock /work/bench.lock`:
#
#   HOLD=1 /work/wt/bounds/scripts/crawl-floor.sh
#
# Environment (optional):
#   HOLD=1           build with the index held back during the crawl
#   NOPREFIX=1       build with page_fts without its prefix index (as scripts/index-floor.sh)
#   CPUPROFILE=FILE  write the crawl process's CPU profile (mundaneum --cpuprofile)
#   KEEP=DIR         keep the workspace (b.db and its index) in DIR (for scripts/index-floor.sh)
#   ADDR=127.0.2.77:8300  where the synthetic web listens (not G-crawl-speed's 127.0.2.1:8300,
#                    which other runs on the machine may hold)
#
# Prints G-crawl-speed's two lines plus one `FLOOR key=value ...` line: the times, and the
# crawl process's CPU (user+sys, from /proc) when every page was stored and at its exit.
set -uo pipefail
shared=/work/shared
out=$(mktemp -d)
ADDR=${ADDR:-127.0.2.77:8300}
x=""
[ "${HOLD:-0}" = 1 ] && x="$x -X mundaneum/backend/index.benchHold=1"
[ "${NOPREFIX:-0}" = 1 ] && x="$x -X mundaneum/backend/index.benchNoPrefix=1"
flags=()
[ -n "$x" ] && flags=(-ldflags "$x")
[ -d frontend/dist ] || { mkdir -p frontend/dist; touch frontend/dist/.keep; }
CGO_ENABLED=0 go build "${flags[@]}" -o "$out/mundaneum" . || { echo "crawl-floor: no CLI binary builds"; exit 1; }
(cd "$shared/bench/synthweb" && go build -o "$out/synthweb" .) || exit 1
(cd "$shared/bench/colly-harness" && go build -o "$out/colly" .) || exit 1
"$out/synthweb" -pages 40000 -hosts 4 -words /usr/share/dict/words -listen $ADDR >/dev/null 2>&1 &
sw=$!
trap 'kill $sw 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null http://$ADDR/ && break; sleep 0.1; done
kill -0 $sw 2>/dev/null || { echo "crawl-floor: the synthetic web did not start on $ADDR (address in use?)"; exit 1; }
tick=$(getconf CLK_TCK)
pcpu() { awk -v t="$tick" '{ printf "%.2f", ($14 + $15) / t }' /proc/$1/stat 2>/dev/null; }
s0=$(pcpu $sw)
t0=$(date +%s.%N); /usr/bin/time -f "%U %S" -o "$out/colly.time" "$out/colly" -start http://$ADDR/ -parallel 8 >"$out/colly.out" 2>&1; t1=$(date +%s.%N)
pages=$(sed -nE 's/.* pages=([0-9]+).*/\1/p' "$out/colly.out")
s1=$(pcpu $sw)
prof=()
[ -n "${CPUPROFILE:-}" ] && prof=(--cpuprofile "$CPUPROFILE")
"$out/mundaneum" "${prof[@]}" crawl --db "$out/b.db" --scope site --delay 0 http://$ADDR/ >"$out/m.out" 2>&1 &
mp=$!
cpu() { pcpu $mp; }
tcrawl="" ccrawl="" clast="" searchable_at_stored=""
while kill -0 $mp 2>/dev/null; do
  c=$(cpu); [ -n "$c" ] && clast=$c
  if [ -z "$tcrawl" ]; then
    read -r f s < <("$out/mundaneum" status --db "$out/b.db" --json 2>/dev/null | python3 -c '
import json, sys
try:
    j = json.load(sys.stdin); p = j["pages"]
    print(int(p["fetched"]) if int(p.get("queued", 1)) == 0 else 0, int(j.get("index", {}).get("searchable", -1)))
except Exception: print(0, -1)')
    if [ "${f:-0}" -ge "${pages:-1}" ]; then tcrawl=$(date +%s.%N); ccrawl=$(cpu); s2=$(pcpu $sw); searchable_at_stored=$s; fi
  fi
  sleep 0.5
done
wait $mp; rc=$?; t2=$(date +%s.%N)
[ -n "$tcrawl" ] || tcrawl=$t2
got=$("$out/mundaneum" status --db "$out/b.db" --json 2>/dev/null | python3 -c '
import json, sys
try: print(int(json.load(sys.stdin)["pages"]["fetched"]))
except Exception: print(0)')
size=$(du -cb "$out"/b.db* 2>/dev/null | tail -1 | cut -f1)
tc=$(echo "$t1 - $t0" | bc); tk=$(echo "$tcrawl - $t1" | bc); tr=$(echo "$t2 - $t1" | bc)
rcrawl=$(echo "scale=2; $tc / $tk" | bc); rready=$(echo "scale=2; $tc / $tr" | bc)
kb=$(( ${size:-0} / 1024 / ${got:-1} ))
echo "colly ${pages} pages ${tc}s; mundaneum rc=$rc all stored ${tk}s, searchable ${tr}s, ${kb} KB/page"
echo "G-crawl-speed: crawl ratio $rcrawl (bar 0.8), ready ratio $rready (bar 0.3), ${kb} KB/page (bar 35)"
echo "FLOOR hold=${HOLD:-0} noprefix=${NOPREFIX:-0} pages=$got colly_s=$tc stored_s=$tk searchable_s=$tr cpu_at_stored_s=${ccrawl:-?} cpu_last_seen_s=${clast:-?} indexed_at_stored=${searchable_at_stored:-?} colly_cpu_s=$(awk '{ print $1 + $2 }' "$out/colly.time") synthweb_cpu_colly_s=$(echo "$s1 - $s0" | bc) synthweb_cpu_to_stored_s=$(echo "${s2:-$s1} - $s1" | bc) rc=$rc load_end=$(cut -d' ' -f1 /proc/loadavg)"
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && mv "$out"/b.db* "$out"/m.out "$KEEP"/ && echo "kept in $KEEP"; fi
