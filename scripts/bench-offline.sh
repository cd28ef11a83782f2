#!/usr/bin/env bash
# Reading offline, timed (issue 27): Debian's PostgreSQL manual (postgresql-doc-15), served by
# nginx on loopback, is crawled with its page requisites; nginx is stopped (the reading is
# offline); then `mundaneum serve` on that workspace is driven in Debian's chromium, clicking
# links inside offline copies (frontend/e2e/offline-perf.mjs): from the click to the target's
# stored copy shown. Prints the crawl's figures and the clicks' distribution. See
# docs/benchmarks.md.
#
# Environment (all optional):
#   CLICKS=200   clicks timed          PAUSE=150  ms between clicks
#   SEED=27      the random walk's seed
#   BIN=build/bin/mundaneum (make bench-offline builds it)
#   KEEP=DIR     keep the workspace and the logs in DIR
#
# It installs what is missing (nginx, the doc package) with apt when it runs as root or can
# use sudo. Every process it starts is stopped on exit; it sends traffic only to loopback.
# Run it under `flock /work/bench.lock` on a shared machine.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLICKS=${CLICKS:-200}
PAUSE=${PAUSE:-150}
SEED=${SEED:-27}
BIN=${BIN:-$repo/build/bin/mundaneum}
KEEP=${KEEP:-}
docroot=/usr/share/doc/postgresql-doc-15/html

say() { echo "bench-offline: $*" >&2; }
die() {
  echo "bench-offline: $*" >&2
  exit 1
}
[[ -x "$BIN" ]] || die "no $BIN: run make build (make bench-offline does)"

need=()
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need+=(nginx-light)
[[ -r "$docroot/index.html" ]] || need+=(postgresql-doc-15)
command -v chromium >/dev/null || [[ -x /usr/bin/chromium ]] || need+=(chromium)
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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mund-bench-offline.XXXXXX")
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ -n "$KEEP" ]]; then
    mkdir -p "$KEEP" && cp -r "$tmp"/. "$KEEP"/ && say "kept the workspace and logs in $KEEP"
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
set -m

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$tmp/nginx"
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  client_body_temp_path $tmp/nginx/body;
  proxy_temp_path $tmp/nginx/proxy;
  fastcgi_temp_path $tmp/nginx/fastcgi;
  uwsgi_temp_path $tmp/nginx/uwsgi;
  scgi_temp_path $tmp/nginx/scgi;
  server { listen 127.0.0.1:$port; root $docroot; }
}
EOF
"$NGINX" -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx" >"$tmp/nginx/out.log" 2>&1 &
nginx_pid=$!
pids+=("$nginx_pid")
for _ in $(seq 100); do
  curl -fsS -o /dev/null "http://127.0.0.1:$port/index.html" 2>/dev/null && break
  sleep 0.1
done
curl -fsS -o /dev/null "http://127.0.0.1:$port/index.html" || die "nginx does not serve the manual: $(cat "$tmp/nginx/error.log")"

db=$tmp/pg.mundaneum
start=http://127.0.0.1:$port/index.html
say "crawling the PostgreSQL manual with its requisites (load $(cut -d' ' -f1-3 /proc/loadavg))"
t0=$(date +%s.%N)
"$BIN" crawl --db "$db" --scope tree --delay 0 --agents 8 --per-host 8 --requisites --json "$start" >"$tmp/crawl.json" 2>"$tmp/crawl.log" ||
  die "the crawl failed: $(tail -5 "$tmp/crawl.log")"
t1=$(date +%s.%N)
python3 - "$tmp/crawl.json" "$t0" "$t1" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"crawl: {s['fetched']} pages fetched, {s['run']['requisites']} requisites stored, "
      f"{float(sys.argv[3]) - float(sys.argv[2]):.1f} s")
EOF
# Offline from here on.
kill -TERM -- "-$nginx_pid" 2>/dev/null || kill "$nginx_pid"
wait "$nginx_pid" 2>/dev/null || true
say "nginx stopped: reading offline; $CLICKS clicks (load $(cut -d' ' -f1-3 /proc/loadavg))"
cd "$repo/frontend"
node e2e/offline-perf.mjs --db "$db" --start "$start" --clicks "$CLICKS" --pause "$PAUSE" --seed "$SEED" --bin "$BIN"
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
