#!/usr/bin/env bash
# camera.sh: the camera tests on a real V4L2 driver. Builds pkg/camera's
# vivid-tagged tests (the runtime on its V4L2 layer, pkg/camera/wire; the
# four-camera test pairs it with pkg/camera/node's messages) as one
# statically linked binary and runs it in a qemu guest with the kernel's
# vivid driver at /dev/video0, through
# ../shared/tools/run-vivid.sh (shared/ lies beside the clone).
#
# Exit 0 with a plain "SKIPPED" line only when the vivid runner cannot run
# here (no run-vivid.sh, SKIP_VIVID=1, not root to install qemu and fetch
# the kernel, no package mirror for them, no static C library, not x86-64).
# A test failure, or the guest failing to boot once set up, is a failure
# (exit non-zero).
#
# Timing on the 2-core build machine (TCG, no KVM): cold first run about
# 15 s for the runner's setup (apt-get qemu-system-x86, kernel download)
# plus the tests; warm runs about 3 s of qemu overhead plus ~17 s of tests.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

skip() { printf 'camera.sh: SKIPPED vivid tests: %s\n' "$*"; exit 0; }

[ "${SKIP_VIVID:-0}" = 1 ] && skip "SKIP_VIVID=1"
# shared/ beside the clone; for a git worktree, beside the main checkout.
RUNNER=${VIVID_RUNNER:-$(git rev-parse --show-toplevel)/../shared/tools/run-vivid.sh}
if [ ! -f "$RUNNER" ] && [ -z "${VIVID_RUNNER:-}" ]; then
	common=$(cd "$(git rev-parse --git-common-dir)" && pwd)
	alt=$(dirname "$common")/../shared/tools/run-vivid.sh
	[ -f "$alt" ] && RUNNER=$alt
fi
[ -f "$RUNNER" ] || skip "runner not found at $RUNNER (the shared/ directory is not beside the clone; VIVID_RUNNER overrides)"
if ! command -v qemu-system-x86_64 >/dev/null 2>&1 && [ "$(id -u)" != 0 ]; then
	skip "qemu-system-x86_64 missing and not root (cannot apt-get it)"
fi
if [ "$(uname -m)" != x86_64 ]; then skip "host is $(uname -m); the runner boots an amd64 guest"; fi

# Static cgo build: go4vl's v4l2 package uses cgo for the kernel headers.
if ! command -v gcc >/dev/null 2>&1 || [ ! -e /usr/lib/x86_64-linux-gnu/libc.a ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "camera.sh: installing gcc and libc6-dev for the static cgo build"
		DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends gcc libc6-dev >/dev/null ||
			{ apt-get -qq update && DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends gcc libc6-dev >/dev/null; }
	else
		skip "gcc or the static C library (libc6-dev) missing and not root"
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "camera.sh: building the static vivid test binary"
CGO_ENABLED=1 go test -c -tags 'vivid osusergo netgo' -ldflags '-extldflags -static' \
	-o "$work/camera.test" ./pkg/camera

echo "camera.sh: running it against vivid in qemu ($RUNNER)"
start=$(date +%s)
status=0
bash "$RUNNER" "$work/camera.test" -test.v -test.count=1 -test.run 'Vivid' -test.skip 'FourCameras' -test.bench 'VividPublish' -test.benchtime 25x >"$work/out" 2>"$work/err" || status=$?
grep -v 'vivid_test.go:[0-9]*: /dev/video0 vivid: ' "$work/out" || true
echo "camera.sh: qemu run took $(( $(date +%s) - start )) s, exit status $status"
if [ "$status" = 125 ] && grep -Eq 'needs root|could not install qemu|apt-get .*failed|cannot resolve the kernel package' "$work/err"; then
	# The runner could not set itself up (no root, no package mirror): the
	# environment lacks it, the tests did not run.
	cat "$work/err" >&2
	skip "the vivid runner could not prepare qemu or the kernel here (see its message above)"
fi
if [ "$status" != 0 ]; then
	cat "$work/err" >&2
	case $status in
	124) echo "camera.sh: FAIL: the guest hit the runner's timeout" >&2 ;;
	125) echo "camera.sh: FAIL: the runner could not boot or set up the guest (see above)" >&2 ;;
	esac
	exit "$status"
fi
grep -q '^PASS$' "$work/out" || { echo "camera.sh: FAIL: no PASS line from the test binary" >&2; exit 1; }

# Four cameras in one process, against four vivid instances, and the
# reopen paths again, with the race detector (the idle-CPU test stays in the
# plain run: the race runtime's own work would be billed to it).
echo "camera.sh: four cameras in one process (vivid n_devs=4), race detector on"
CGO_ENABLED=1 go test -race -c -tags 'vivid osusergo netgo' -ldflags '-extldflags -static' \
	-o "$work/camera-race.test" ./pkg/camera
status=0
V4L2LAB_VIVID_PARAMS="n_devs=4 node_types=0x1,0x1,0x1,0x1 num_inputs=1,1,1,1 input_types=0x0,0x0,0x0,0x0 vid_cap_nr=0,1,2,3" \
	bash "$RUNNER" "$work/camera-race.test" -test.v -test.count=1 \
	-test.run 'VividFourCameras|VividFatalErrorReopen|VividDisconnect' >"$work/out" 2>"$work/err" || status=$?
cat "$work/out"
if [ "$status" != 0 ]; then cat "$work/err" >&2; echo "camera.sh: FAIL: four-camera run exit $status" >&2; exit "$status"; fi
grep -q '^PASS$' "$work/out" || { echo "camera.sh: FAIL: no PASS line from the four-camera run" >&2; exit 1; }

# The command-line tool on the same driver: capture 25 Bayer frames to files.
echo "camera.sh: telebridge camera capture on vivid"
CGO_ENABLED=1 go build -tags 'osusergo netgo' -ldflags '-extldflags -static' -o "$work/telebridge" ./cmd/telebridge
status=0
bash "$RUNNER" "$work/telebridge" camera capture --device /dev/video0 -n 25 --format GRBG --out /test/frames \
	>"$work/out" 2>"$work/err" || status=$?
cat "$work/out"
if [ "$status" != 0 ]; then cat "$work/err" >&2; echo "camera.sh: FAIL: telebridge camera capture exit $status" >&2; exit "$status"; fi
grep -q 'timestamps strictly increasing: true' "$work/out" || { echo "camera.sh: FAIL: timestamps not increasing" >&2; exit 1; }
grep -q 'corrupted 0' "$work/out" || { echo "camera.sh: FAIL: corrupted frames" >&2; exit 1; }
echo "camera.sh: vivid checks passed"
