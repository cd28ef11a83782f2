#!/usr/bin/env bash
# Runs every Go fuzz target of the project (every `func FuzzXxx(f *testing.F)` in a
# _test.go file) for FUZZTIME each, one after the other, and reports which failed. A
# failing input is written by `go test` to the package's testdata/fuzz/FuzzXxx/, where it
# stays as a seed that every later `go test` (and so `make test`) runs again: commit it
# with the fix.
#
#   scripts/fuzz.sh                   every target, 10 minutes each
#   FUZZTIME=30s scripts/fuzz.sh      a quick pass
#   FUZZ=Robots scripts/fuzz.sh       only targets whose package path or name matches
#   FUZZ_PARALLEL=4 scripts/fuzz.sh   fuzz workers per target (default 1: one core)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fuzztime=${FUZZTIME:-10m}
parallel=${FUZZ_PARALLEL:-1}
filter=${FUZZ:-}

# package directory and target name of every fuzz target, in a stable order
mapfile -t targets < <(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' \
  --exclude-dir=node_modules --exclude-dir=.git . |
  sort | while read -r file; do
    dir=$(dirname "$file")
    grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //' | while read -r name; do
      echo "$dir $name"
    done
  done)

failed=()
ran=0
for t in "${targets[@]}"; do
  dir=${t% *}
  name=${t#* }
  if [[ -n "$filter" && "$dir $name" != *"$filter"* ]]; then
    continue
  fi
  ran=$((ran + 1))
  echo "fuzz: $dir $name for $fuzztime ($(date +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))"
  if ! CGO_ENABLED=0 go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel "$parallel" "$dir" 2>&1 |
    tail -n 40; then
    failed+=("$dir $name")
  fi
done
if ((ran == 0)); then
  echo "fuzz: no target matches FUZZ=$filter"
  exit 2
fi
if ((${#failed[@]} > 0)); then
  echo "fuzz: ${#failed[@]} of $ran targets failed (their inputs are in each package's testdata/fuzz/):"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "fuzz: all $ran targets ran $fuzztime without a failure"
