#!/usr/bin/env bash
# Builds Mundaneum's installable packages into build/package/ (issue 28, item 1):
#   mundaneum_VERSION-1_ARCH.deb          the binary, its desktop entry and icons (it shows in
#                                         the menu), the workspace file type (a .mundaneum file
#                                         opens in it), man pages and shell completions made
#                                         from the command line itself, and its dependencies
#   mundaneum-VERSION-linux-ARCH.tar.gz   the same files under bin/ and share/, to unpack into
#                                         ~/.local or /usr/local (INSTALL inside says how)
# The .deb is made by nfpm (github.com/goreleaser/nfpm, from the Go module proxy, pinned
# below). Run it through `make package`, which builds the frontend first.
#
# Usage: scripts/package.sh
set -euo pipefail
umask 022
cd "$(dirname "${BASH_SOURCE[0]}")/.."

nfpm=github.com/goreleaser/nfpm/v2/cmd/nfpm@v2.45.2 # newer ones are not served here
version=$(scripts/version.sh)
deb_version=$(scripts/version.sh --deb)
arch=$(go env GOARCH) # Go's amd64 and arm64 are Debian's names too
date=$(git log -1 --format=%cs 2>/dev/null || date +%F) # the pages' date: the commit's
out=build/package
root=$out/root # the installed tree, /usr below it
usr=$root/usr

say() { echo "package: $*"; }
die() { echo "package: $*" >&2; exit 1; }

[[ -f frontend/dist/index.html ]] || die "the frontend is not built (make package builds it)"
command -v convert >/dev/null || die "ImageMagick's convert is missing (run: make setup)"
rm -rf "$out"
mkdir -p "$usr/bin" "$usr/share/man/man1" "$usr/share/applications" "$usr/share/mime/packages" \
  "$usr/share/bash-completion/completions" "$usr/share/zsh/vendor-completions" \
  "$usr/share/fish/vendor_completions.d" "$usr/share/doc/mundaneum"

# The binary, built here rather than taken from build/bin so that its version is this
# checkout's (make build only relinks when a source changed). The flags and CGO_CXXFLAGS
# are those `wails build` uses, so that Go's build cache serves both: a link, not a rebuild.
say "mundaneum $version ($arch)"
CGO_ENABLED=1 CGO_CXXFLAGS="${CGO_CXXFLAGS:+$CGO_CXXFLAGS }-I$PWD/build" go build -buildvcs=false -tags desktop,production,webkit2_41 \
  -ldflags "-w -s -X mundaneum/backend/crawl.Version=$version" -o "$usr/bin/mundaneum" .
got=$("$usr/bin/mundaneum" --version)
[[ "$got" == "mundaneum version $version" ]] || die "the binary says '$got', not version $version"

# Man pages and completions, from the command tree itself.
CGO_ENABLED=0 go run ./scripts/genman -out "$usr/share/man/man1" -version "$version" -date "$date"
gzip -9n "$usr"/share/man/man1/*.1
"$usr/bin/mundaneum" completion bash >"$usr/share/bash-completion/completions/mundaneum"
"$usr/bin/mundaneum" completion zsh >"$usr/share/zsh/vendor-completions/_mundaneum"
"$usr/bin/mundaneum" completion fish >"$usr/share/fish/vendor_completions.d/mundaneum.fish"

# The menu entry, the workspace file type and the icon (the app's and its files').
install -m 0644 build/linux/mundaneum.desktop "$usr/share/applications/mundaneum.desktop"
install -m 0644 build/linux/mundaneum-mime.xml "$usr/share/mime/packages/mundaneum.xml"
for size in 16 32 48 64 128 256 512; do
  dir=$usr/share/icons/hicolor/${size}x${size}/apps
  mkdir -p "$dir"
  convert build/appicon.png -strip -resize "${size}x${size}" "PNG32:$dir/mundaneum.png"
done
# The guide with the pages it links to, so that its links resolve from the installed copy.
install -m 0644 README.md "$usr/share/doc/mundaneum/README.md"
mkdir -p "$usr/share/doc/mundaneum/docs/screenshots"
install -m 0644 docs/*.md "$usr/share/doc/mundaneum/docs/"
install -m 0644 docs/screenshots/*.png "$usr/share/doc/mundaneum/docs/screenshots/"

# The .deb. Debian's triggers (shared-mime-info, desktop-file-utils, hicolor-icon-theme)
# update the MIME, menu and icon caches on install and removal: no maintainer scripts.
cat >"$out/nfpm.yaml" <<YAML
name: mundaneum
arch: $arch
platform: linux
version: "$deb_version"
version_schema: none
release: "1"
section: web
priority: optional
maintainer: Mundaneum <noreply@mundaneum.invalid>
description: |-
  Crawl the web you care about, search it offline, keep a library of links
  Mundaneum crawls the parts of the web you care about into a local SQLite
  workspace, searches all of it offline, keeps a hand-curated hierarchical
  library of links and notes, and watches both for rot and change. It opens
  as a desktop window, serves the same app to a browser (mundaneum serve),
  and has a command line for scripts (mundaneum --help).
depends:
  - libc6
  - libgtk-3-0
  - libwebkit2gtk-4.1-0
recommends:
  - chromium
  - poppler-utils
  - xdg-utils
contents:
  - src: $root/usr/
    dst: /usr/
    type: tree
YAML
deb=$out/mundaneum_${deb_version}-1_${arch}.deb
go run "$nfpm" package --config "$out/nfpm.yaml" --packager deb --target "$deb" >/dev/null
say "$deb"

# The tarball: the same tree under mundaneum-VERSION-linux-ARCH/, without /usr.
name=mundaneum-$version-linux-$arch
cat >"$out/INSTALL" <<TXT
Mundaneum $version for Linux ($arch)

Needs WebKitGTK 4.1 and GTK 3 (Debian and Ubuntu: apt install libwebkit2gtk-4.1-0
libgtk-3-0); Chromium for pages built by scripts, poppler-utils for PDFs.

For yourself, into ~/.local (~/.local/bin must be on your PATH):
  cp -r bin share ~/.local/
  update-mime-database ~/.local/share/mime
  update-desktop-database ~/.local/share/applications   # if installed

For everyone: the same into /usr/local, as root.

Then: Mundaneum is in the applications menu, a .mundaneum file opens in it, and
'mundaneum --help' lists the commands ('man mundaneum' too).
TXT
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="$date" \
  --transform "s,^\./usr,$name," --transform "s,^\./INSTALL,$name/INSTALL," \
  -C "$out" -czf "$out/$name.tar.gz" ./INSTALL -C root ./usr
say "$out/$name.tar.gz"
