#!/usr/bin/env bash
# Link-check benchmark: `mundaneum check` against Debian's linkchecker and `wget --spider -r`
# on real documentation sites that Debian ships (postgresql-doc-15, rust-doc), served as
# static files by nginx on loopback, in the same run. Prints wall time, CPU and peak RSS of
# each, and whether they found the same broken links. See docs/benchmarks.md.
#
# Environment (all optional):
#   DOCS="postgresql rust"  which documentation sets
#   RUNS=3                  mundaneum runs per set (figures are medians); the peers run once
#   AGENTS=32 PER_HOST=32   mundaneum check --agents / --per-host (the delay is 0: our server)
#   PEERS=1                 0 skips linkchecker and wget
#   ALL_LINKS=1             also time a mundaneum run that tests links to other sites (no
#                           --internal-only); without internet they fail at DNS
#   KEEP=DIR                keep the logs, broken-link lists and workspaces in DIR
#
# It installs what is missing (nginx, linkchecker, wget, the two doc packages, GNU time) with
# apt when it runs as root or can use sudo. Every process it starts is stopped on exit; it
# sends traffic only to loopback. Run it under `flock /work/bench.lock` on a shared machine.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DOCS=${DOCS:-postgresql rust}
RUNS=${RUNS:-3}
AGENTS=${AGENTS:-32}
PER_HOST=${PER_HOST:-32}
PEERS=${PEERS:-1}
ALL_LINKS=${ALL_LINKS:-1}
KEEP=${KEEP:-}

say() { echo "bench-check: $*" >&2; }
die() {
  echo "bench-check: $*" >&2
  exit 1
}
[[ "$RUNS" =~ ^[0-9]+$ ]] && ((RUNS > 0)) || die "RUNS must be a positive integer"

declare -A docroot=([postgresql]=/usr/share/doc/postgresql-doc-15/html [rust]=/usr/share/doc/rust-doc/html)
declare -A docpkg=([postgresql]=postgresql-doc-15 [rust]=rust-doc)

# --- Debian packages ---------------------------------------------------------------------------
need=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need+=(nginx-light)
command -v wget >/dev/null || need+=(wget)
command -v linkchecker >/dev/null || need+=(linkchecker)
[[ -x /usr/bin/time ]] || need+=(time)
command -v python3 >/dev/null || need+=(python3)
for d in $DOCS; do
  [[ -n "${docroot[$d]:-}" ]] || die "unknown documentation set '$d' (postgresql, rust)"
  [[ -r "${docroot[$d]}/index.html" ]] || need+=("${docpkg[$d]}")
done
if ((${#need[@]} > 0)); then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null && sudo -n true 2>/dev/null || die "missing Debian packages: ${need[*]}; install them as root"
    sudo=(sudo)
  fi
  say "installing Debian packages: ${need[*]}"
  for try in 1 2 3; do
    "${sudo[@]}" apt-get update -q >&2 && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      --no-install-recommends "${need[@]}" >&2 && break
    ((try == 3)) && die "could not install: ${need[*]}"
    sleep 5
  done
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# --- processes: each in its own process group, all stopped on exit -----------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mund-bench-check.XXXXXX")
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ -n "$KEEP" ]]; then
    mkdir -p "$KEEP" && cp -r "$tmp"/. "$KEEP"/ && say "kept the logs and lists in $KEEP"
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set -m

say "building mundaneum into $tmp"
(cd "$repo" && CGO_ENABLED=0 go build -o "$tmp/mundaneum" .) || die "mundaneum did not build"

# --- nginx: one server per documentation set, on free loopback ports ----------------------------
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
declare -A port
servers=""
for d in $DOCS; do
  port[$d]=$(freeport)
  servers+="  server { listen 127.0.0.1:${port[$d]}; root ${docroot[$d]}; }"$'\n'
done
mkdir -p "$tmp/nginx"
# LinkChecker: the header linkchecker requires before it sends more than 10 requests a second
# to a host (its own politeness rule); with it, all three checkers run unthrottled.
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  add_header LinkChecker 1 always;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
$servers}
EOF
"$NGINX" -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx" >"$tmp/nginx/out.log" 2>&1 &
pids+=("$!")
for d in $DOCS; do
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "http://127.0.0.1:${port[$d]}/index.html" 2>/dev/null && break
    sleep 0.1
  done
  curl -fsS -o /dev/null "http://127.0.0.1:${port[$d]}/index.html" || die "nginx does not serve $d: $(cat "$tmp/nginx/error.log")"
done
printf '[checking]\nmaxrequestspersecond=1000\n' >"$tmp/linkchecker.ini"

# --- helpers --------------------------------------------------------------------------------------
load1() { cut -d' ' -f1 /proc/loadavg; }
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# timed OUT LOG CMD...: run CMD under GNU time; sets wall (s), cpu (s), rss (MB).
timed() {
  local out=$1 log=$2 st=0
  shift 2
  /usr/bin/time -v -o "$tmp/time.txt" "$@" >"$out" 2>"$log" &
  local p=$!
  pids+=("$p")
  wait "$p" || st=$?
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.3f", s }' "$tmp/time.txt")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$tmp/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$tmp/time.txt")
  return "$st"
}

# Broken-link lists, one URL a line, percent-decoded and without fragment (the three tools
# spell URLs differently; linkchecker lists a missing page once per #fragment linked to),
# restricted to the documentation's own host.
broken_mundaneum() { # JSON of `check --json`, host
  python3 - "$1" "$2" <<'EOF'
import json, sys, urllib.parse
d = json.load(open(sys.argv[1]))
fail = {"broken", "server_error", "timeout", "invalid"}
out = set()
for t in d.get("tasks") or []:
    for l in t.get("links") or []:
        if l["verdict"] in fail and urllib.parse.urlsplit(l["url"]).netloc == sys.argv[2]:
            out.add(urllib.parse.unquote(urllib.parse.urldefrag(l["url"])[0]))
print("\n".join(sorted(out)))
EOF
}
broken_wget() { # wget log, host
  python3 - "$1" "$2" <<'EOF'
import re, sys, urllib.parse
text = open(sys.argv[1], errors="replace").read()
m = re.search(r"Found \d+ broken links?\.\n\n(.*?)\n\n", text, re.S)
out = set()
for line in (m.group(1).splitlines() if m else []):
    u = line.strip()
    if urllib.parse.urlsplit(u).netloc == sys.argv[2]:
        out.add(urllib.parse.unquote(urllib.parse.urldefrag(u)[0]))
print("\n".join(sorted(out)))
EOF
}
broken_linkchecker() { # CSV, host
  python3 - "$1" "$2" <<'EOF'
import csv, sys, urllib.parse
rows = [l for l in open(sys.argv[1], errors="replace") if not l.startswith("#")]
out = set()
for r in csv.DictReader(rows, delimiter=";"):
    if r.get("valid") == "False" and urllib.parse.urlsplit(r["url"]).netloc == sys.argv[2]:
        out.add(urllib.parse.unquote(urllib.parse.urldefrag(r["url"])[0]))
print("\n".join(sorted(out)))
EOF
}

declare -a rows=()
status=0
for d in $DOCS; do
  host="127.0.0.1:${port[$d]}"
  url="http://$host/index.html"
  say "$d: $url"
  # --- mundaneum: a fresh workspace with the task (not timed), then the timed check -----------
  m_wall=() m_cpu=() m_rss=() m_load=()
  for run in $(seq "$RUNS"); do
    db="$tmp/$d-$run.mundaneum"
    "$tmp/mundaneum" --db "$db" task add docs --type site --top "$url" --internal-only >/dev/null
    lb=$(load1)
    timed "$tmp/$d-mundaneum.json" "$tmp/$d-mundaneum.err" "$tmp/mundaneum" --db "$db" check --task docs --json \
      --delay 0 --agents "$AGENTS" --per-host "$PER_HOST" || die "mundaneum check failed: $(tail -n 3 "$tmp/$d-mundaneum.err")"
    m_wall+=("$wall") m_cpu+=("$cpu") m_rss+=("$rss") m_load+=("$lb/$(load1)")
    say "  mundaneum run $run: ${wall}s wall, ${cpu}s CPU, ${rss} MB peak RSS, load ${m_load[-1]}"
  done
  tested=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tested"])' "$tmp/$d-mundaneum.json")
  broken_mundaneum "$tmp/$d-mundaneum.json" "$host" >"$tmp/$d-broken-mundaneum.txt"
  rows+=("$d|mundaneum check (internal links)|$(median "${m_wall[@]}")|$(median "${m_cpu[@]}")|$(median "${m_rss[@]}")|$(wc -l <"$tmp/$d-broken-mundaneum.txt")|$tested URLs tested; runs ${m_wall[*]} s; load ${m_load[*]}")

  if [[ "$ALL_LINKS" == 1 ]]; then
    db="$tmp/$d-all.mundaneum"
    "$tmp/mundaneum" --db "$db" task add docs --type site --top "$url" >/dev/null
    lb=$(load1)
    timed "$tmp/$d-all.json" "$tmp/$d-all.err" "$tmp/mundaneum" --db "$db" check --task docs --json \
      --delay 0 --agents "$AGENTS" --per-host "$PER_HOST" || die "mundaneum check (all links) failed"
    atested=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tested"])' "$tmp/$d-all.json")
    rows+=("$d|mundaneum check (every link)|$wall|$cpu|$rss|$(broken_mundaneum "$tmp/$d-all.json" "$host" | wc -l)|$atested URLs tested, links elsewhere fail at DNS here; load $lb/$(load1)")
  fi

  if [[ "$PEERS" == 1 ]]; then
    # --- wget --spider -r: every page of the site, recursively, nothing kept ------------------
    mkdir -p "$tmp/wget-$d"
    lb=$(load1)
    timed "$tmp/$d-wget.out" "$tmp/$d-wget.err" wget --spider -r -l inf -nd -nv -P "$tmp/wget-$d" -o "$tmp/$d-wget.log" "$url" || true
    broken_wget "$tmp/$d-wget.log" "$host" >"$tmp/$d-broken-wget.txt"
    rows+=("$d|wget --spider -r -l inf|$wall|$cpu|$rss|$(wc -l <"$tmp/$d-broken-wget.txt")|load $lb/$(load1)")
    # --- linkchecker: its defaults (internal links, 10 threads), unthrottled -------------------
    lb=$(load1)
    timed "$tmp/$d-linkchecker.csv" "$tmp/$d-linkchecker.err" linkchecker -f "$tmp/linkchecker.ini" --no-status -o csv "$url" || true
    broken_linkchecker "$tmp/$d-linkchecker.csv" "$host" >"$tmp/$d-broken-linkchecker.txt"
    rows+=("$d|linkchecker|$wall|$cpu|$rss|$(wc -l <"$tmp/$d-broken-linkchecker.txt")|load $lb/$(load1)")
    for peer in wget linkchecker; do
      if ! diff -q "$tmp/$d-broken-mundaneum.txt" "$tmp/$d-broken-$peer.txt" >/dev/null; then
        say "$d: broken links differ from $peer's (< only mundaneum, > only $peer):"
        diff "$tmp/$d-broken-mundaneum.txt" "$tmp/$d-broken-$peer.txt" | grep '^[<>]' | head -n 40 >&2 || true
        status=1
      else
        say "$d: the same $(wc -l <"$tmp/$d-broken-mundaneum.txt") broken links as $peer"
      fi
    done
  fi
done

printf '\n%-11s %-34s %9s %9s %8s %7s  %s\n' set checker "wall s" "CPU s" "RSS MB" broken notes
for r in "${rows[@]}"; do
  IFS='|' read -r set who w c m b notes <<<"$r"
  printf '%-11s %-34s %9s %9s %8s %7s  %s\n' "$set" "$who" "$w" "$c" "$m" "$b" "$notes"
  echo "BENCH set=$set checker=\"$who\" wall_s=$w cpu_s=$c rss_mb=$m broken=$b" >&2
done
exit "$status"
