#!/usr/bin/env bash
# livekit.sh: pkg/video/lkpub against a real LiveKit server. Builds
# livekit-server from its Go module into a cache directory (once), then
# runs TestLiveKitPublishes with LIVEKIT_SERVER pointing at it: the robot's
# two pattern cameras published into a room, a Go subscriber decoding both
# tracks with ffmpeg and reading their frame codes, the server killed and
# restarted, the publisher back in the room by itself.
#
# The server: github.com/livekit/livekit-server v1.13.5, the newest version
# the Go module proxy serves whose go.mod has no replace directives (from
# v1.13.6 on it replaces pion/webrtc, ice and dtls with LiveKit's forks,
# which the proxy refuses), so a plain `go install pkg@version` builds it
# with this machine's Go. Cold build on the 2-core machine (empty module
# and build caches, ~360 MB of modules): 8.5 min of wall time with the load
# average at 17-23 from other jobs, 2 min 46 s user + 35 s system CPU.
# Warm (binary cached): nothing; the test's link and run take about 1 min.
#
# Network: the test's server binds 127.0.0.1 and offers only 127.0.0.1
# candidates, but the SDK's ICE agent (pion) gathers host candidates on
# every non-loopback interface and never on loopback. So the test runs in
# a network namespace made here (unshare -n) with loopback and one veth
# pair (10.77.0.1/24, both ends inside): no packet leaves the namespace.
#
# Exit 0 with a plain "SKIPPED" line only when this cannot run here (no
# root or unshare for the namespace, LIVEKIT_SKIP=1); a build or test
# failure is a failure.
# Environment: LIVEKIT_CACHE (default ~/.cache/telebridge), LIVEKIT_SERVER
# (use this binary instead of building one), LIVEKIT_SKIP=1.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

skip() { printf 'livekit.sh: SKIPPED LiveKit test: %s\n' "$*"; exit 0; }
[ "${LIVEKIT_SKIP:-0}" = 1 ] && skip "LIVEKIT_SKIP=1"

version=v1.13.5
if [ -n "${LIVEKIT_SERVER:-}" ]; then
	server=$LIVEKIT_SERVER
else
	cache=${LIVEKIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/telebridge}/livekit-server-$version
	server=$cache/livekit-server
	if [ ! -x "$server" ]; then
		echo "livekit.sh: building livekit-server $version from its Go module into $cache"
		scratch=$(mktemp -d)
		start=$(date +%s)
		# Outside this repository's module, so its go.mod plays no part.
		(cd "$scratch" && GOFLAGS= GOBIN="$scratch/bin" go install "github.com/livekit/livekit-server/cmd/server@$version")
		mkdir -p "$cache"
		mv "$scratch/bin/server" "$server"
		rm -rf "$scratch"
		echo "livekit.sh: built in $(( $(date +%s) - start )) s"
	fi
fi
"$server" --version

if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1 || ! command -v ip >/dev/null 2>&1; then
	skip "needs root with unshare and ip (iproute2) for the test's network namespace"
fi
if ! unshare -n true 2>/dev/null; then
	skip "unshare -n failed: no network namespaces here"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/lkpub.test" ./pkg/video/lkpub
status=0
LIVEKIT_SERVER=$server unshare -n sh -c '
	set -e
	ip link set lo up
	ip link add lkv0 type veth peer name lkv1
	ip addr add 10.77.0.1/24 dev lkv0
	ip link set lkv0 up
	ip link set lkv1 up
	cd pkg/video/lkpub
	exec "$0" -test.v -test.count=1 -test.run "LiveKit"
' "$work/lkpub.test" >"$work/out" 2>&1 || status=$?
cat "$work/out"
if [ "$status" != 0 ]; then
	echo "livekit.sh: FAIL (exit $status, output above)" >&2
	exit "$status"
fi
grep -q -e '--- PASS: TestLiveKitPublishes' "$work/out" || { echo "livekit.sh: FAIL: TestLiveKitPublishes did not pass (skipped?)" >&2; exit 1; }
echo "livekit.sh: ok"
