#!/usr/bin/env bash
# console.sh: the operator console's browser tests (pkg/console/direct,
# TestBrowser*, among them TestBrowserTLS, TestBrowserCookiePerPort,
# TestBrowserRoles and TestBrowserLogBound, TestDriveScreen, TestPhone*
# (the phone layout: time to first picture, overlays, the 3-D inset),
# TestWebRTC*)
# in a real headless Chromium, and its figures (key-down to
# UDP packet latency, CPU with four cameras and nobody watching, glass-to-glass
# video latency over WebRTC and MJPEG: TestVideoLatency).
#
# Installs Debian's chromium when it is missing and this runs as root with
# apt-get; otherwise it says why and skips (exit 0, a plain "SKIPPED"
# line). Once a browser is there, a missing or failing browser test is a
# failure: TELEBRIDGE_BROWSER_TESTS=required turns the tests' own skip into
# a failure.
#
# Timing on the 2-core build machine: about 40 s of browser tests (and 30 s
# of the drive screen's, TestDriveScreen, 30 s of the TLS, cookie, role and
# log-bound probes, TestBrowser{TLS,CookiePerPort,Roles,LogBound}, 2 min of
# the phone layout's, TestPhone* (two 21 s waits), 40 s of
# WebRTC's, TestWebRTC*), 15 s of
# latency measurement, 30 s of video latency, 10 s of CPU figures (plus ~1 min for the first
# chromium install).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

skip() { printf 'console.sh: SKIPPED browser tests: %s\n' "$*"; exit 0; }

have() { command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; }
if ! have; then
	[ "$(id -u)" = 0 ] || skip "no chromium on PATH and not root (cannot apt-get install chromium)"
	command -v apt-get >/dev/null 2>&1 || skip "no chromium on PATH and no apt-get to install it"
	echo "console.sh: installing chromium (Debian package)"
	log=$(mktemp)
	if ! { apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends chromium; } >"$log" 2>&1; then
		tail -n 20 "$log"
		rm -f "$log"
		skip "apt-get install chromium failed (see above): no package mirror?"
	fi
	rm -f "$log"
	have || skip "chromium installed but not on PATH"
fi

art=${CONSOLE_ARTIFACTS:-$(mktemp -d)}
echo "console.sh: browser tests, screenshots and figures in $art"
TELEBRIDGE_BROWSER_TESTS=required CONSOLE_FIGURES=1 CONSOLE_ARTIFACTS=$art \
TELEBRIDGE_PHYSICS_TESTS=required TELEBRIDGE_RENDER_TESTS=required \
	go test -count=1 -timeout 15m -run 'TestBrowser|TestDriveScreen|TestPhone|TestWebRTC|TestKeyLatency|TestFigures|TestVideoLatency|TestFrozenBrowser|TestLinkSlowShown|TestWorldDriveScreen' -v ./pkg/console/direct/ 2>&1 |
	grep -v -E ' (INFO|WARN) console: '
# Ctrl-C of the built command with a WebRTC page open, and just killed.
TELEBRIDGE_BROWSER_TESTS=required \
	go test -count=1 -run 'TestConsoleSIGINTWithWebRTCPage' -v ./cmd/telebridge/ 2>&1 |
	grep -v -E ' (INFO|WARN) console: '
# Without libx264 (TELEBRIDGE_NO_X264=1) every camera falls back to MJPEG
# and says why.
TELEBRIDGE_BROWSER_TESTS=required TELEBRIDGE_NO_X264=1 \
	go test -count=1 -run 'TestWebRTCFallback' -v ./pkg/console/direct/ 2>&1 |
	grep -v -E ' (INFO|WARN) console: '
