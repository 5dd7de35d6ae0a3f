#!/usr/bin/env bash
# impaired-link.sh: the console's live video and commands over an impaired
# link (scripts/impaired-link.sh: network namespaces, tbf at 3 Mbit/s, the
# pkg/impair relay with 3 % loss and 40 +/- 20 ms, a 2 s blackout). It
# prints the figures (GOAL MISSED for a figure not reached) and fails when
# the video or the commands broke; it skips with the
# reason where network namespaces or tc cannot be used (not root, a
# container without them) or there is no Chromium. console.sh, which runs
# before it, installs Chromium where it can: once Chromium is there, the
# run is required.
#
# Timing on the 2-core build machine: about 35 s (build included).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || command -v google-chrome >/dev/null 2>&1; then
	export TELEBRIDGE_BROWSER_TESTS=required
fi
exec bash scripts/impaired-link.sh
