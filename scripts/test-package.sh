#!/usr/bin/env bash
# Installs the .deb that `make package` built on this machine with apt (as root, or with
# sudo), checks what a user gets, and removes it again (issue 28, item 1):
#   - apt resolves its dependencies and installs it; `mundaneum --version` is this checkout's
#   - the menu entry is valid, the workspace type is registered for *.mundaneum files and
#     opens in Mundaneum, the man page and the bash completion work
#   - the installed app opens its window under Xvfb, on a workspace given as a file manager
#     gives it (the path as the one argument), and paints (scripts/smoke-window.sh)
#   - `apt remove` leaves none of its files behind
# It refuses to run where a mundaneum package is installed already (it would remove it).
#
# Usage: scripts/test-package.sh [DEB]    (default: the one in build/package/)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { echo "test-package: $*"; }
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }

deb=${1:-$(ls build/package/mundaneum_*.deb 2>/dev/null | head -n 1)}
[[ -f "$deb" ]] || fail "no .deb (run: make package)"
deb=$(realpath "$deb")
version=$(scripts/version.sh)
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || fail "installing a package needs root or sudo"
  sudo=(sudo)
fi
if dpkg-query -W -f='${Status}' mundaneum 2>/dev/null | grep -q 'install ok installed'; then
  fail "a mundaneum package is installed on this machine already: this test would replace and remove it"
fi

tmp=$(mktemp -d)
installed=
cleanup() {
  if [[ -n "$installed" ]]; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q mundaneum >/dev/null 2>&1 || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

# apt can fail when another apt run holds its lock or cleans its cache: retry.
apt_get() {
  for attempt in 1 2 3; do
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "$@" && return 0
    say "apt-get $1 failed (attempt $attempt of 3)"
    sleep $((attempt * 5))
  done
  return 1
}

# 1. Install, with its dependencies.
say "installing $(basename "$deb")"
apt_get install -y -q --no-install-recommends "$deb" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get install"; }
installed=1
dpkg-query -W -f='${Status}\n' mundaneum | grep -q 'install ok installed' || fail "dpkg does not list it as installed"
dpkg -L mundaneum >"$tmp/files"
for dep in libwebkit2gtk-4.1-0 libgtk-3-0; do
  dpkg-deb -f "$deb" Depends | grep -q "$dep" || fail "the package does not depend on $dep"
done
dpkg-deb -f "$deb" Recommends | grep -q chromium || fail "the package does not recommend chromium"

# 2. What a user gets.
bin=$(command -v mundaneum) || fail "mundaneum is not on the PATH"
[[ "$bin" == /usr/bin/mundaneum ]] || fail "mundaneum is $bin, not /usr/bin/mundaneum"
got=$(mundaneum --version)
[[ "$got" == "mundaneum version $version" ]] || fail "mundaneum --version says '$got', want version $version"
say "$got"
for f in /usr/share/applications/mundaneum.desktop /usr/share/mime/packages/mundaneum.xml \
  /usr/share/icons/hicolor/256x256/apps/mundaneum.png /usr/share/man/man1/mundaneum.1.gz \
  /usr/share/man/man1/mundaneum-crawl.1.gz /usr/share/bash-completion/completions/mundaneum; do
  grep -qx "$f" "$tmp/files" || fail "$f is not in the package"
done
# The installed guide's images and links resolve (its pages in docs/ come with it).
doc=/usr/share/doc/mundaneum
for rel in $(grep -oE '\]\((docs/[^)#]+)' "$doc/README.md" | sed 's/^](//' | sort -u); do
  [[ -f "$doc/$rel" ]] || fail "the installed README names $rel, which is not installed"
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate /usr/share/applications/mundaneum.desktop || fail "the desktop entry is not valid"
fi
grep -q '^MimeType=application/x-mundaneum-workspace;' /usr/share/applications/mundaneum.desktop ||
  fail "the desktop entry does not open workspaces"
# shared-mime-info's trigger ran: a workspace (SQLite, application_id MUND) is our type.
ws=$tmp/research.mundaneum
mundaneum library mkdir --db "$ws" /Reading >/dev/null
if command -v xdg-mime >/dev/null; then
  type=$(XDG_DATA_DIRS=/usr/share xdg-mime query filetype "$ws" 2>/dev/null || true)
  [[ "$type" == application/x-mundaneum-workspace ]] || fail "a workspace's type is '$type'"
  # desktop-file-utils' trigger ran: the file manager opens that type with Mundaneum.
  app=$(HOME=$tmp XDG_DATA_DIRS=/usr/share xdg-mime query default "$type" 2>/dev/null || true)
  [[ "$app" == mundaneum.desktop ]] || fail "a workspace opens with '$app', not mundaneum.desktop"
  say "a workspace is $type and opens with $app"
fi
[[ -f /usr/share/mime/application/x-mundaneum-workspace.xml ]] || fail "the MIME database does not know the workspace type"
zcat /usr/share/man/man1/mundaneum-crawl.1.gz | grep -q '^\.TH "MUNDANEUM"' || fail "the man page has no header"
if command -v man >/dev/null; then
  man -w mundaneum >/dev/null 2>&1 || fail "man does not find mundaneum(1)"
fi
bash -c 'source /usr/share/bash-completion/completions/mundaneum && complete -p mundaneum' >/dev/null ||
  fail "the bash completion does not load"

# 3. The installed window opens a workspace given as its one argument (a double-click).
say "opening the installed window under Xvfb"
SMOKE_OUT=build/package/window.png SMOKE_ARG=path scripts/smoke-window.sh /usr/bin/mundaneum || fail "the installed window"

# 4. Remove it: nothing of it stays.
say "removing it"
apt_get remove -y -q mundaneum >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log" >&2; fail "apt-get remove"; }
installed=
if dpkg-query -W -f='${Status}' mundaneum 2>/dev/null | grep -qv 'not-installed'; then
  fail "dpkg still knows it: $(dpkg-query -W -f='${Status}' mundaneum)"
fi
left=()
while read -r f; do
  [[ -e "$f" && ! -d "$f" ]] && left+=("$f")
done <"$tmp/files"
((${#left[@]} == 0)) || fail "left behind: ${left[*]}"
[[ ! -e /usr/share/mime/application/x-mundaneum-workspace.xml ]] || fail "the MIME database still has the workspace type"
say "OK: installed, ran and removed $(basename "$deb") ($(wc -l <"$tmp/files") paths)"
