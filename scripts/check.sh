#!/usr/bin/env bash
# check.sh: every check of the project, on a fresh machine with Go.
# This is the README's test command; .ci/run calls it.
#
# Environment (all optional):
#   FUZZTIME   how much each fuzz target runs (default 50000x: 50 000
#              executions; 0 skips fuzzing). A count, not a duration: with a
#              duration, Go 1.26's fuzz coordinator can fail a target with a
#              bare "context deadline exceeded" when the time runs out while a
#              worker is busy (golang/go#75804, fixed in Go 1.27), which failed
#              a CI run of this project on a loaded machine.
#   SKIP_VIVID=1  skip the camera tests on a real V4L2 device (qemu + vivid)
set -euo pipefail
cd "$(dirname "$0")/.."

STATICCHECK=honnef.co/go/tools/cmd/staticcheck@v0.7.0
FUZZTIME=${FUZZTIME:-50000x}
export GOFLAGS=${GOFLAGS:-}
export GONOSUMDB=github.com/tiiuae

step() { printf '\n=== %s\n' "$*"; }

step "Debian packages (scripts/debian-packages.sh; libx264-dev and gcc for the layout test)"
# pkg/video loads libx264 and libyuv at run time, the training world libode
# and EGL; the video tests decode with ffmpeg; TestX264Layout compares its
# x264 structures with x264.h.
. scripts/debian-packages.sh
need_debian_packages $TELEBRIDGE_DEBIAN_PACKAGES $TELEBRIDGE_CHECK_PACKAGES || { echo "check.sh: FAIL: the tests need these packages (see above)"; exit 1; }
export TELEBRIDGE_X264_LAYOUT=required

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

step "doc comments (internal/tools/doccheck)"
# Every exported name (struct fields included) has a doc comment.
go run ./internal/tools/doccheck ./...

step "without libx264 and libyuv (TELEBRIDGE_NO_X264=1, TELEBRIDGE_NO_LIBYUV=1; CGO_ENABLED=0 build)"
# The build needs only Go; at run time a missing libx264 means MJPEG with a
# one-line reason, a missing libyuv the Go conversion.
CGO_ENABLED=0 go build -o /dev/null ./cmd/telebridge
CGO_ENABLED=0 go test -count=1 -run 'NoCgo' ./pkg/camera/
TELEBRIDGE_NO_X264=1 TELEBRIDGE_NO_LIBYUV=1 go test -count=1 -run 'Fallback|NoX264|NoLibyuv|Convert' ./pkg/video/

step "go test -race"
# The console's browser tests run once, in scripts/check.d/console.sh (which
# installs Chromium where it can and makes them mandatory there). The
# training world's physics (libode) and renderer (EGL) were installed
# above, so their tests must run here: a missing library is a failure.
TELEBRIDGE_BROWSER_TESTS=elsewhere TELEBRIDGE_PHYSICS_TESTS=required TELEBRIDGE_RENDER_TESTS=required \
	go test -race -count=1 ./...

step "benchmarks compile and run once"
# The output is kept in a file and printed in full when a benchmark fails, so
# the reason is never lost; on success only the summary lines are shown.
benchlog=$(mktemp)
if ! go test -run='^$' -bench=. -benchtime=1x ./... >"$benchlog" 2>&1; then
	cat "$benchlog"
	printf 'benchmarks failed (output above)\n'
	exit 1
fi
grep -E '^(ok|FAIL|---)' "$benchlog" || true
rm -f "$benchlog"

# fuzz_one runs one fuzz target. On failure it prints the whole output and every
# failing input the fuzzer saved (testdata/fuzz/<target>/<hash>, path and
# contents), which is what `go test -run=<target>/<hash>` replays.
fuzz_one() {
	local pkg=$1 target=$2 log dir before after f
	log=$(mktemp)
	dir=$(go list -f '{{.Dir}}' "$pkg")/testdata/fuzz/$target
	before=$(ls "$dir" 2>/dev/null | sort || true)
	if go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" "$pkg" >"$log" 2>&1; then
		rm -f "$log"
		return 0
	fi
	cat "$log"
	rm -f "$log"
	after=$(ls "$dir" 2>/dev/null | sort || true)
	for f in $(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after")); do
		printf '\nfailing input %s:\n' "$dir/$f"
		cat "$dir/$f"
	done
	printf '\nfuzz target %s in %s failed (output above)\n' "$target" "$pkg"
	exit 1
}

if [ "$FUZZTIME" != 0 ]; then
	step "fuzz targets, $FUZZTIME each"
	for pkg in $(go list ./...); do
		for target in $(go test -list '^Fuzz' "$pkg" | grep '^Fuzz' || true); do
			printf '%s %s\n' "$pkg" "$target"
			fuzz_one "$pkg" "$target"
		done
	done
fi

for extra in scripts/check.d/*.sh; do
	[ -e "$extra" ] || continue
	step "$extra"
	bash "$extra"
done

step "all checks passed"
