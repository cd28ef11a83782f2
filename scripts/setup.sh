#!/usr/bin/env bash
# Installs what building, running and testing Mundaneum need, and nothing that is already
# there: Debian packages (only those `dpkg -s` reports missing), the Wails CLI and staticcheck
# at their pinned versions, and the frontend's npm packages (when node_modules is missing or older than
# package-lock.json). Safe to run again: on a set-up machine it takes about a second.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

wails_version=v2.16.0
wails_bin=${WAILS:-$(go env GOPATH | cut -d: -f1)/bin/wails}
# staticcheck 2026.2.2, the newest release the module proxy serves here (make lint runs it).
staticcheck_version=v0.8.2
staticcheck_bin=${STATICCHECK:-$(go env GOPATH | cut -d: -f1)/bin/staticcheck}
debian_packages=(
  libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config build-essential # the desktop binary (cgo)
  xvfb xauth imagemagick x11-utils xdotool                     # the window smoke test
  libx11-dev libxext-dev                                       # make bench-window's paint watcher (scripts/paintwatch)
  chromium                                                     # browser end-to-end tests; rendering pages built by scripts
  firefox-esr                                                  # the browser extension's run in Firefox
  wamerican                                                    # a word list for benchmarks
  poppler-utils                                                # PDF text and metadata (pdftotext, pdfinfo)
  xapian-omega xapian-tools git-doc                            # the relevance check (Git docs vs Xapian)
  desktop-file-utils                                           # the package test checks the menu entry
)

say() { echo "setup: $*"; }
die() { echo "setup: $*" >&2; exit 1; }

# --- toolchains this script does not install -------------------------------------------
command -v go >/dev/null || die "Go is missing: install Go 1.26 (https://go.dev/dl/) and run again"
command -v node >/dev/null && command -v npm >/dev/null ||
  die "Node.js is missing: install Node 20.19+ with npm and run again"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 20)) || die "Node $(node --version) is too old: Vite 8 needs Node 20.19 or newer"

# --- Debian packages --------------------------------------------------------------------
missing=()
if command -v dpkg >/dev/null; then
  for p in "${debian_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
else
  say "not a Debian-like system: make sure the equivalents of these are installed: ${debian_packages[*]}"
fi
if ((${#missing[@]} > 0)); then
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
    sudo=(sudo)
  fi
  say "installing Debian packages: ${missing[*]}"
  ok=
  # apt can fail when another apt run cleans its cache mid-install: retry.
  for attempt in 1 2 3; do
    if "${sudo[@]}" apt-get update -q &&
      "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; then
      ok=1
      break
    fi
    say "apt-get failed (attempt $attempt of 3)"
    sleep $((attempt * 5))
  done
  [[ -n "$ok" ]] || die "could not install: ${missing[*]}"
fi

# --- Wails CLI ---------------------------------------------------------------------------
have=$("$wails_bin" version 2>/dev/null | head -n 1 || true)
if [[ "$have" != "$wails_version" ]]; then
  say "installing the Wails CLI $wails_version to $wails_bin (had: ${have:-none})"
  # @latest resolves to an old release that does not build with Go 1.26: pin it.
  GOBIN=$(dirname "$wails_bin") go install "github.com/wailsapp/wails/v2/cmd/wails@$wails_version"
  have=$("$wails_bin" version 2>/dev/null | head -n 1 || true)
  [[ "$have" == "$wails_version" ]] || die "wails CLI reports '$have', wanted $wails_version"
fi

# --- staticcheck (make lint) ---------------------------------------------------------------
if ! "$staticcheck_bin" -version 2>/dev/null | grep -qF "(${staticcheck_version#v})"; then
  say "installing staticcheck $staticcheck_version to $staticcheck_bin"
  GOBIN=$(dirname "$staticcheck_bin") go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
  "$staticcheck_bin" -version | grep -qF "(${staticcheck_version#v})" ||
    die "staticcheck reports '$("$staticcheck_bin" -version)', wanted $staticcheck_version"
fi

# --- frontend packages -------------------------------------------------------------------
stamp=frontend/node_modules/.package-lock.json # written by npm ci
if [[ ! -f $stamp || frontend/package-lock.json -nt $stamp ]]; then
  say "installing frontend packages (npm ci)"
  (cd frontend && npm ci --no-audit --no-fund)
  touch "$stamp"
fi

# --- the browser extension's packages (TypeScript, esbuild, Vitest, web-ext lint) ---------
stamp=extension/node_modules/.package-lock.json
if [[ ! -f $stamp || extension/package-lock.json -nt $stamp ]]; then
  say "installing the browser extension's packages (npm ci)"
  (cd extension && npm ci --no-audit --no-fund)
  touch "$stamp"
fi

say "ready"
