#!/usr/bin/env bash
# WARC import benchmark (issue 15): generates a synthetic WARC of MB MiB once (cached by
# scripts/benchwarc), then times `mundaneum import` into a fresh workspace under
# /usr/bin/time -v and prints pages/s, MB/s and peak RSS, with one machine-readable line
# (`BENCH key=value ...`). See docs/benchmarks.md.
#
# Environment (all optional): MB=1024, KEEP=DIR (keep the workspace there).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MB=${MB:-1024}
cd "$repo"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -d frontend/dist ] || { mkdir -p frontend/dist; touch frontend/dist/.keep; }
CGO_ENABLED=0 go build -o "$work/mundaneum" .
file=$(CGO_ENABLED=0 go run ./scripts/benchwarc -mb "$MB")
size=$(stat -c %s "$file")
echo "bench-warc: importing $file ($((size >> 20)) MiB), load $(cut -d' ' -f1-3 /proc/loadavg)"
db=${KEEP:-$work}/bench.mundaneum
rm -f "$db" "$db"-*
start=$(date +%s.%N)
/usr/bin/time -v -o "$work/time.txt" "$work/mundaneum" import --db "$db" --json "$file" >"$work/report.json"
end=$(date +%s.%N)
rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
python3 - "$work/report.json" "$start" "$end" "$size" "$rss" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
secs = float(sys.argv[3]) - float(sys.argv[2])
size, rss = int(sys.argv[4]), int(sys.argv[5])
pages = r["pages"]
print(f"records {r['records']}, pages {pages} (duplicates {r['duplicates']}, from revisits {r['revisits']}), "
      f"other {r['other']}, problems {r['problemCount']}")
print(f"{secs:.1f} s: {pages/secs:.0f} pages/s, {size/secs/2**20:.1f} MiB/s, peak RSS {rss/1024:.0f} MiB")
print(f"BENCH warc_import mb={size>>20} pages={pages} seconds={secs:.1f} pages_per_s={pages/secs:.0f} "
      f"mib_per_s={size/secs/2**20:.1f} peak_rss_mib={rss/1024:.0f}")
PY
echo "bench-warc: load after $(cut -d' ' -f1-3 /proc/loadavg)"
