#!/usr/bin/env bash
# check.sh: every check of the project, on a fresh machine with Go.
# This is the README's test command; .ci/run calls it.
#
# Environment (all optional):
#   FUZZTIME   how long each fuzz target runs (default 5s; 0 skips fuzzing)
#   SKIP_VIVID=1  skip the camera tests on a real V4L2 device (qemu + vivid)
set -euo pipefail
cd "$(dirname "$0")/.."

STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.7.0
FUZZTIME=${FUZZTIME:-5s}
export GOFLAGS=${GOFLAGS:-}
export GONOSUMDB=github.com/tiiuae

step() { printf '\n=== %s\n' "$*"; }

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	printf 'not gofmt-formatted:\n%s\n' "$unformatted"
	exit 1
fi

step "go vet"
go vet ./...

step "staticcheck ($STATICCHECK)"
go run "$STATICCHECK" ./...

step "go test -race"
go test -race -count=1 ./...

step "benchmarks compile and run once"
go test -run='^$' -bench=. -benchtime=1x ./... >/dev/null

if [ "$FUZZTIME" != 0 ]; then
	step "fuzz targets, $FUZZTIME each"
	for pkg in $(go list ./...); do
		for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
			printf '%s %s\n' "$pkg" "$target"
			go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" "$pkg" >/dev/null
		done
	done
fi

for extra in scripts/check.d/*.sh; do
	[ -e "$extra" ] || continue
	step "$extra"
	bash "$extra"
done

step "all checks passed"
