#!/usr/bin/env bash
# run.sh: build and run telebridge on a fresh machine with Go, the README's
# main command. Arguments go to telebridge (default: console).
#
#   scripts/run.sh                       # the operator console, every machine simulated
#   scripts/run.sh console --world course   # the Servosila in the training course
#   scripts/run.sh rtp --to 127.0.0.1:5004 --sdp front.sdp
#
# The build needs only Go: libx264 (H.264 video), libyuv, ODE (the training
# world's physics) and EGL (its rendered cameras) are loaded at run time.
# When their Debian packages are missing, run.sh installs them if it runs
# as root with apt-get; otherwise telebridge runs without them (the cameras
# fall back to MJPEG, a world to the kinematic simulator and pattern
# cameras, and the console says what to install).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/debian-packages.sh

if ! need_debian_packages; then
	echo "run.sh: running without them: without libx264 the cameras fall back to MJPEG, without libode8 or EGL a --world to the kinematic simulator." >&2
	echo "run.sh: for them, install the packages as root (apt-get install $TELEBRIDGE_DEBIAN_PACKAGES) and run this again." >&2
fi
bin=$(mktemp -d)/telebridge
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/telebridge
[ $# -gt 0 ] || set -- console
"$bin" "$@"
