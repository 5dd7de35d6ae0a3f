#!/usr/bin/env bash
# run.sh: build and run telebridge on a fresh machine with Go, the README's
# main command. Arguments go to telebridge (default: console).
#
#   scripts/run.sh                       # the operator console, every machine simulated
#   scripts/run.sh rtp --to 127.0.0.1:5004 --sdp front.sdp
#
# The default build links libx264 (H.264 video) through cgo. When the
# Debian packages it needs are missing, run.sh installs them if it runs as
# root with apt-get; otherwise it builds without H.264 (-tags nox264),
# says how to get it, and the cameras use MJPEG.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/debian-packages.sh

tags=""
if ! need_debian_packages; then
	tags="nox264"
	echo "run.sh: building without H.264 (-tags nox264): cameras fall back to MJPEG." >&2
	echo "run.sh: for H.264, install the packages as root (apt-get install $TELEBRIDGE_DEBIAN_PACKAGES) and run this again." >&2
fi
bin=$(mktemp -d)/telebridge
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -tags "$tags" -o "$bin" ./cmd/telebridge
[ $# -gt 0 ] || set -- console
"$bin" "$@"
