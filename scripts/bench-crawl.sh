#!/usr/bin/env bash
# Crawl benchmark: Mundaneum against a Colly floor on the same synthetic web, on loopback.
#
# Builds synthweb and colly-harness (../shared/bench, separate Go modules) and the mundaneum
# CLI, serves a synthetic web of PAGES pages on one loopback host, crawls it with Colly
# (fetch + parse links, stores nothing) and then with `mundaneum crawl` (fetch, extract,
# store, index) under /usr/bin/time -v, and prints one summary table plus one
# machine-readable line (`BENCH key=value ...`). While Mundaneum crawls, it polls
# `mundaneum status --json` for the moment every page is stored (as the acceptance check
# does) and samples the process's memory and the WAL files' sizes. See docs/benchmarks.md.
#
# Environment (all optional):
#   PAGES=40000 HOSTS=4  pages in the synthetic web and the hosts they are spread over; both
#                      crawlers crawl the first host (10,001 pages with the defaults)
#   RUNS=1             crawl the web this many times (fresh database each time); figures are
#                      medians over the runs
#   PARALLEL=8         Colly's parallel requests
#   AGENTS= PER_HOST=  mundaneum crawl --agents / --per-host (default: the CLI's own)
#   CPUPROFILE=FILE    also write a CPU profile of the (last) mundaneum crawl to FILE
#   KEEP=DIR           copy the last run's database (not with KEEP_DB=0), logs and binary to DIR
#   BENCH_DIR=DIR      where synthweb/ and colly-harness/ are (default: ../shared/bench)
#   LISTEN_ADDR=127.0.2.1  loopback address to serve on; the port is the first free from 8300
#
# Every process it starts is stopped on exit; it sends traffic only to loopback.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PAGES=${PAGES:-40000}
HOSTS=${HOSTS:-4}
RUNS=${RUNS:-1}
PARALLEL=${PARALLEL:-8}
AGENTS=${AGENTS:-}
PER_HOST=${PER_HOST:-}
CPUPROFILE=${CPUPROFILE:-}
KEEP=${KEEP:-}
BENCH_DIR=${BENCH_DIR:-$repo/../shared/bench}
LISTEN_ADDR=${LISTEN_ADDR:-127.0.2.1}
WORDS=/usr/share/dict/words

say() { echo "bench: $*" >&2; }
die() {
  echo "bench: $*" >&2
  exit 1
}

[[ "$PAGES" =~ ^[0-9]+$ ]] && ((PAGES > 0)) || die "PAGES must be a positive integer, not '$PAGES'"
[[ "$RUNS" =~ ^[0-9]+$ ]] && ((RUNS > 0)) || die "RUNS must be a positive integer, not '$RUNS'"
[[ "$HOSTS" =~ ^[0-9]+$ ]] && ((HOSTS > 0)) || die "HOSTS must be a positive integer, not '$HOSTS'"
[[ "$LISTEN_ADDR" == 127.* ]] || die "LISTEN_ADDR must be a 127.x.y.z loopback address"
[[ -d "$BENCH_DIR/synthweb" && -d "$BENCH_DIR/colly-harness" ]] ||
  die "no synthweb/ and colly-harness/ under $BENCH_DIR (set BENCH_DIR)"
command -v go >/dev/null || die "Go is missing"

# --- Debian packages: the word list, GNU time, the sqlite3 shell ----------------------------
need=()
[[ -r $WORDS ]] || need+=(wamerican)
[[ -x /usr/bin/time ]] || need+=(time)
command -v sqlite3 >/dev/null || need+=(sqlite3)
if ((${#need[@]} > 0)); then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
      sudo=(sudo)
    else
      die "missing Debian packages: ${need[*]} (for $WORDS, /usr/bin/time, sqlite3). Install them as root: apt-get install ${need[*]}"
    fi
  fi
  say "installing Debian packages: ${need[*]}"
  "${sudo[@]}" apt-get update -q >&2 &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2 ||
    die "could not install: ${need[*]}"
fi
[[ -r $WORDS ]] || die "$WORDS is missing (Debian package wamerican)"

fsize() { if [[ -e $1 ]]; then stat -c %s "$1"; else echo 0; fi; }

# --- processes: each started in its own process group, all stopped on exit --------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mund-bench.XXXXXX")
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do
    kill -TERM -- "-$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set -m # background jobs get their own process group: kill -- -PID stops a job and its children

# run_bg LOGFILE CMD...: start CMD in the background; sets $bg_pid.
run_bg() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 &
  bg_pid=$!
  pids+=("$bg_pid")
}

# run_fg OUT ERR CMD...: run CMD to completion (stoppable by the trap); returns its status.
run_fg() {
  local out=$1 err=$2 st=0
  shift 2
  "$@" >"$out" 2>"$err" &
  local p=$!
  pids+=("$p")
  wait "$p" || st=$?
  return "$st"
}

# sample_rss PID DB OUT: while PID (GNU time) runs, track the peak anonymous and file-backed
# resident memory of its child (the crawler) from /proc, and the peak sizes of the
# workspace's WAL and of its index's WAL; keep "anon_kb file_kb wal_bytes index_wal_bytes"
# in OUT. The file-backed part is mostly database pages SQLite maps (mmap_size), which count
# in the peak RSS that time -v reports.
sample_rss() {
  local tp=$1 db=$2 out=$3 child="" k v maxa=0 maxf=0 maxw=0 maxiw=0 a f w iw
  echo "0 0 0 0" >"$out"
  while kill -0 "$tp" 2>/dev/null; do
    [[ -n "$child" ]] || child=$(pgrep -P "$tp" | head -n 1 || true)
    if [[ -n "$child" && -r /proc/$child/status ]]; then
      a=0 f=0
      while read -r k v _; do
        case $k in
          RssAnon:) a=$v ;;
          RssFile:) f=$v ;;
        esac
      done <"/proc/$child/status" 2>/dev/null || true
      ((a > maxa)) && maxa=$a
      ((f > maxf)) && maxf=$f
    fi
    w=$(fsize "$db-wal") iw=$(fsize "$db-index-wal")
    ((w > maxw)) && maxw=$w
    ((iw > maxiw)) && maxiw=$iw
    echo "$maxa $maxf $maxw $maxiw" >"$out"
    sleep 0.2
  done
}

# watch_stored PID DB BIN PAGES START OUT: while PID runs, poll `mundaneum status --json` as
# another process would; write to OUT the seconds since START (date +%s.%N) at which every
# page was stored: nothing queued, and at least PAGES pages fetched (Colly's count).
watch_stored() {
  local tp=$1 db=$2 bin=$3 want=$4 t0=$5 out=$6 f
  : >"$out"
  while kill -0 "$tp" 2>/dev/null; do
    f=$({ "$bin" status --db "$db" --json 2>/dev/null || true; } | python3 -c '
import json, sys
try:
    p = json.load(sys.stdin)["pages"]; print(int(p["fetched"]) if int(p.get("queued", 1)) == 0 else 0)
except Exception: print(0)' 2>/dev/null | head -n 1)
    if ((${f:-0} >= want)); then
      awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f\n", a - b }' >"$out"
      return
    fi
    sleep 0.25
  done
}

# --- build --------------------------------------------------------------------------------
say "building synthweb, colly-harness and mundaneum into $tmp"
(cd "$BENCH_DIR/synthweb" && CGO_ENABLED=0 go build -o "$tmp/synthweb" .) || die "synthweb did not build"
(cd "$BENCH_DIR/colly-harness" && CGO_ENABLED=0 go build -o "$tmp/colly-harness" .) || die "colly-harness did not build"
(cd "$repo" && CGO_ENABLED=0 go build -o "$tmp/mundaneum" .) || die "mundaneum did not build"

# --- the synthetic web ----------------------------------------------------------------------
# Ground truth (pages reachable on the host, broken links, redirects) for the report.
truth=$("$tmp/synthweb" -pages "$PAGES" -hosts "$HOSTS" -words "$WORDS" -listen "$LISTEN_ADDR:8300" -truth 2>/dev/null |
  awk -F'\t' 'NR == 2 { print $3, $6, $7, $8, $9 }')
read -r truth_pages truth_broken truth_redirects truth_images truth_html_bytes <<<"$truth"

port=
for p in $(seq 8300 8399); do
  # Someone already listening there? Then try the next port.
  if (exec 3<>"/dev/tcp/$LISTEN_ADDR/$p") 2>/dev/null; then continue; fi
  run_bg "$tmp/synthweb.log" "$tmp/synthweb" -pages "$PAGES" -hosts "$HOSTS" -words "$WORDS" -listen "$LISTEN_ADDR:$p"
  for _ in $(seq 100); do
    if curl -fsS -o /dev/null --max-time 2 "http://$LISTEN_ADDR:$p/" 2>/dev/null; then
      port=$p
      break
    fi
    kill -0 "$bg_pid" 2>/dev/null || break # exited: the port was taken after all
    sleep 0.1
  done
  [[ -n "$port" ]] && break
done
[[ -n "$port" ]] || die "synthweb did not start on $LISTEN_ADDR:8300-8399: $(tail -n 3 "$tmp/synthweb.log")"
url="http://$LISTEN_ADDR:$port/"
say "synthweb: $PAGES pages at $url (truth: $truth_pages html pages, $truth_redirects redirects, $truth_broken broken URLs)"

# --- helpers ----------------------------------------------------------------------------------
jnum() { grep -o "\"$1\": *[0-9.e+-]*" "$2" | head -n 1 | sed 's/.*: *//'; }
load1() { cut -d' ' -f1 /proc/loadavg; }
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.6g\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

declare -a failed_runs=()
declare -a r_anon r_file r_colly r_cwall r_pages r_secs r_stored r_cratio r_rratio r_pps r_mbps r_rss r_bpp r_ibytes r_blob r_blobpct r_db r_wal r_iwal r_load
for run in $(seq "$RUNS"); do
  load_before=$(load1)
  # Colly: fetch and parse only.
  t0=$(date +%s.%N)
  run_fg "$tmp/colly.out" "$tmp/colly.err" "$tmp/colly-harness" -start "$url" -parallel "$PARALLEL" ||
    die "colly-harness failed: $(tail -n 3 "$tmp/colly.err")"
  colly_wall=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')
  colly_pps=$(grep -o 'pages_per_s=[0-9.]*' "$tmp/colly.out" | cut -d= -f2)
  colly_pages=$(grep -o ' pages=[0-9]*' "$tmp/colly.out" | cut -d= -f2)
  [[ -n "$colly_pps" ]] || die "no pages_per_s in colly-harness output: $(cat "$tmp/colly.out")"

  # Mundaneum: fetch, extract, store, index, into a fresh workspace.
  db="$tmp/bench.db"
  rm -f "$db"*
  prof=()
  if [[ -n "$CPUPROFILE" && $run -eq $RUNS ]]; then prof=(--cpuprofile "$CPUPROFILE"); fi
  par=()
  [[ -z "$PER_HOST" ]] || par+=(--per-host "$PER_HOST")
  [[ -z "$AGENTS" ]] || par+=(--agents "$AGENTS")
  st=0
  t0=$(date +%s.%N)
  /usr/bin/time -v -o "$tmp/time.txt" "$tmp/mundaneum" "${prof[@]}" crawl --db "$db" --json \
    --scope site --delay 0 "${par[@]}" "$url" >"$tmp/mund.json" 2>"$tmp/mund.err" &
  mund_pid=$!
  pids+=("$mund_pid")
  sample_rss "$mund_pid" "$db" "$tmp/rss.txt" &
  pids+=("$!")
  sampler=$!
  watch_stored "$mund_pid" "$db" "$tmp/mundaneum" "$colly_pages" "$t0" "$tmp/stored.txt" &
  pids+=("$!")
  watcher=$!
  wait "$mund_pid" || st=$?
  wait "$sampler" || true
  wait "$watcher" || true
  read -r anon_kb file_kb wal_b iwal_b <"$tmp/rss.txt"
  if ((st != 0)); then
    # Report what was measured anyway, and fail at the end.
    say "mundaneum crawl exited $st: $(tail -n 2 "$tmp/mund.err" | tr '\r' '\n' | tail -n 2)"
    failed_runs+=("$run:exit$st")
  fi
  load_after=$(load1)
  # Long work always reports (issue 18): the longest time between two progress lines, from
  # the elapsed time each line shows ("1h2m3s").
  say "longest gap between progress lines: $(tr '\r' '\n' <"$tmp/mund.err" | awk -F' · ' '
    { for (i = 1; i <= NF; i++) if ($i ~ /^([0-9]+h)?([0-9]+m)?[0-9]+s$/) {
        t = 0; s = $i; while (match(s, /[0-9]+[hms]/)) { n = substr(s, RSTART, RLENGTH - 1); u = substr(s, RSTART + RLENGTH - 1, 1)
          t += n * (u == "h" ? 3600 : u == "m" ? 60 : 1); s = substr(s, RSTART + RLENGTH) }
        if (seen && t - prev > gap) gap = t - prev; prev = t; seen = 1; break } }
    END { printf "%ds", gap }')"

  # Sizes first: the sqlite3 shell below checkpoints the WAL away when it closes. The
  # workspace is all of its files: the .db, its -wal, and the index beside it.
  db_bytes=$(cat "$db"* 2>/dev/null | wc -c)
  index_bytes=$(cat "$db-index"* 2>/dev/null | wc -c)
  fetched=$(jnum fetched "$tmp/mund.json")
  wire=$(jnum bytes "$tmp/mund.json")
  err=$(grep -o '"error": *"[^"]*"' "$tmp/mund.json" | sed 's/^"error": *//' || true)
  [[ -n "$fetched" && "$fetched" -gt 0 ]] || die "mundaneum fetched nothing: $(cat "$tmp/mund.json" "$tmp/mund.err")"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$tmp/time.txt")
  stored=$(cat "$tmp/stored.txt")
  [[ -n "$stored" ]] || stored=$wall # never seen stored before the exit (fewer pages than Colly)
  rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$tmp/time.txt")
  blob_data=$(sqlite3 "$db" 'SELECT coalesce(sum(length(data)), 0) FROM blobs')

  r_colly+=("$colly_pps")
  r_cwall+=("$colly_wall")
  r_pages+=("$fetched")
  r_secs+=("$wall")
  r_stored+=("$stored")
  r_cratio+=("$(awk -v c="$colly_wall" -v s="$stored" 'BEGIN { printf "%.2f", c / s }')")
  r_rratio+=("$(awk -v c="$colly_wall" -v s="$wall" 'BEGIN { printf "%.2f", c / s }')")
  r_pps+=("$(awk -v p="$fetched" -v s="$stored" 'BEGIN { printf "%.1f", p / s }')")
  r_mbps+=("$(awk -v b="$wire" -v s="$stored" 'BEGIN { printf "%.2f", b / s / 1e6 }')")
  r_rss+=("$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')")
  r_anon+=("$(awk -v k="$anon_kb" 'BEGIN { printf "%.1f", k / 1024 }')")
  r_file+=("$(awk -v k="$file_kb" 'BEGIN { printf "%.1f", k / 1024 }')")
  r_wal+=("$(awk -v b="$wal_b" 'BEGIN { printf "%.1f", b / 1048576 }')")
  r_iwal+=("$(awk -v b="$iwal_b" 'BEGIN { printf "%.1f", b / 1048576 }')")
  r_db+=("$db_bytes")
  r_ibytes+=("$index_bytes")
  r_bpp+=("$(awk -v d="$db_bytes" -v p="$fetched" 'BEGIN { printf "%.0f", d / p }')")
  r_blob+=("$blob_data")
  r_blobpct+=("$(awk -v b="$blob_data" -v d="$db_bytes" 'BEGIN { printf "%.1f", 100 * b / d }')")
  r_load+=("$load_before/$load_after")
  say "run $run/$RUNS: colly $colly_pages pages in ${colly_wall}s; mundaneum $fetched pages stored in ${stored}s" \
    "(${r_cratio[-1]}x), searchable at exit ${wall}s (${r_rratio[-1]}x), peak RSS ${r_rss[-1]} MB, peak WAL ${r_wal[-1]} MB" \
    "(index ${r_iwal[-1]} MB), ${r_bpp[-1]} B/page, load $load_before -> $load_after"
done

# Where the bytes are, by table and index (last run), for the report.
breakdown=$( (sqlite3 "$db" "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6" 2>/dev/null
  sqlite3 "$db-index" "SELECT 'index:' || name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 4" 2>/dev/null) |
  awk -F'|' '{ printf "%s=%.1fMB ", $1, $2 / 1e6 }' || true)
if [[ -n "$KEEP" ]]; then
  mkdir -p "$KEEP"
  [[ "${KEEP_DB:-1}" == 0 ]] || cp "$db" "$db-index" "$KEEP/"
  cp "$tmp/mund.json" "$tmp/mund.err" "$tmp/time.txt" "$tmp/rss.txt" "$tmp/colly.out" "$KEEP/"
  cp "$tmp/mundaneum" "$KEEP/mundaneum" # pprof needs the binary that wrote the profile
fi

m() { median "$@"; }
pages=$(m "${r_pages[@]}") secs=$(m "${r_secs[@]}") stored=$(m "${r_stored[@]}") pps=$(m "${r_pps[@]}")
mbps=$(m "${r_mbps[@]}") cratio=$(m "${r_cratio[@]}") rratio=$(m "${r_rratio[@]}") colly=$(m "${r_colly[@]}")
cwall=$(m "${r_cwall[@]}") rss=$(m "${r_rss[@]}") bpp=$(m "${r_bpp[@]}") dbb=$(m "${r_db[@]}") ib=$(m "${r_ibytes[@]}")
anon=$(m "${r_anon[@]}") filemb=$(m "${r_file[@]}") blobpct=$(m "${r_blobpct[@]}") wal=$(m "${r_wal[@]}") iwal=$(m "${r_iwal[@]}")

how="${par[*]:-with the CLI defaults}"
cat <<REPORT

Mundaneum crawl benchmark: the first host of a $PAGES-page synthetic web over $HOSTS host(s) at $url, $RUNS run(s), medians
  machine            $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load (1 min) before/after each run: ${r_load[*]}
  web (truth)        $truth_pages html pages, $truth_redirects redirects, $truth_broken broken URLs, $truth_images images on this host
  colly              $cwall s for the site (-parallel $PARALLEL, fetch + parse only; $colly pages/s; per run: ${r_cwall[*]})
  mundaneum pages    $pages   (fetched, from --json; crawl $how --delay 0)
  mundaneum failures ${failed_runs[*]:-none}   (last run's error: ${err:-none})
  stored (s)         $stored   (every page fetched and stored, polled with status --json; per run: ${r_stored[*]})
  searchable (s)     $secs   (the process's exit: every page searchable; per run: ${r_secs[*]})
  crawl ratio        $cratio   (colly seconds / stored seconds; target >= 0.8; per run: ${r_cratio[*]})
  ready ratio        $rratio   (colly seconds / searchable seconds; target >= 0.3; per run: ${r_rratio[*]})
  pages/s, MB/s      $pps, $mbps   (stored, wire bytes)
  peak RSS MB        $rss   (target < 250 at 100,000 pages; per run: ${r_rss[*]})
    of which (peaks)  anonymous $anon, file-backed $filemb (sampled every 0.2 s)
  peak WAL MB        workspace $wal, index $iwal   (target <= 256; sampled every 0.2 s)
  workspace bytes    $dbb   (every file of the workspace after the crawl: .db, -wal, the index; of which the index $ib)
  bytes/page         $bpp   (target <= 35 KB = 35840)
  blobs share        ${blobpct}% of the workspace as sum(length(data))
  by table (MB)      $breakdown
REPORT
echo "BENCH pages_target=$PAGES hosts=$HOSTS runs=$RUNS fetched=$pages colly_seconds=$cwall stored_seconds=$stored searchable_seconds=$secs" \
  "crawl_ratio=$cratio ready_ratio=$rratio pages_per_s=$pps mb_per_s=$mbps colly_pages_per_s=$colly peak_rss_mb=$rss peak_anon_mb=$anon" \
  "peak_file_mb=$filemb peak_wal_mb=$wal peak_index_wal_mb=$iwal db_bytes=$dbb index_bytes=$ib bytes_per_page=$bpp" \
  "blobs_pct=$blobpct load=${r_load[*]// /,} failed_runs=${#failed_runs[@]}"
((${#failed_runs[@]} == 0)) || die "mundaneum crawl failed in run(s): ${failed_runs[*]}"
