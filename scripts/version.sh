#!/usr/bin/env bash
# Prints this checkout's version, which the build embeds (mundaneum --version, the
# User-Agent) and the packages carry: `git describe` against the latest v* tag
# ("0.2.0", or "0.2.0-5-gabc1234" five commits after it, "-dirty" with uncommitted
# changes). Before the first tag it counts from 0.1.0: "0.1.0-1234-g3fa2446".
#
# Usage: scripts/version.sh [--deb]
#   --deb: as a Debian upstream version, which sorts the same way: 0.1.0+1234.g3fa2446
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if v=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
  v=${v#v}
elif hash=$(git rev-parse --short=7 HEAD 2>/dev/null); then
  v=0.1.0-$(git rev-list --count HEAD)-g$hash
  git diff --quiet HEAD 2>/dev/null || v+=-dirty
else
  v=0.1.0-unknown # not a git checkout
fi

if [[ "${1:-}" == --deb ]]; then
  # The first '-' starts what comes after the release; Debian keeps '-' for its revision.
  if [[ "$v" == *-* ]]; then
    rest=${v#*-}
    v=${v%%-*}+${rest//-/.}
  fi
fi
echo "$v"
