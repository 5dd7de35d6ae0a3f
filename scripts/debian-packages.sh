#!/usr/bin/env bash
# debian-packages.sh: the Debian packages the build and the tests need,
# installed when missing. Sourced by scripts/check.sh and scripts/run.sh.
#
#   libx264-dev  H.264 encoder (cgo, pkg/video); without it build with
#                -tags nox264 (no H.264: the console falls back to MJPEG)
#   pkg-config   how cgo finds libx264
#   ffmpeg       the video tests decode RTP and H.264 with it
#   libegl1, libgles2, libgl1-mesa-dri
#                headless EGL, OpenGL ES and Mesa's llvmpipe for the rendered
#                cameras (pkg/render, loaded at run time: without them the
#                build works and the cameras fall back to test patterns)
#   libode-dev   the training world's physics (ODE 0.16, pkg/physics):
#                loaded at run time (purego), so the build does not need
#                it; its tests skip without it
#
# need_debian_packages prints what it does. It returns 0 when every package
# is there (or was installed), 1 with the reason on stderr when some are
# missing and cannot be installed (not root, no apt-get, apt-get failed).
TELEBRIDGE_DEBIAN_PACKAGES="libx264-dev pkg-config ffmpeg libegl1 libgles2 libgl1-mesa-dri libode-dev"

need_debian_packages() {
	local missing=() p log
	for p in $TELEBRIDGE_DEBIAN_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "missing Debian packages: ${missing[*]}; not root, cannot install them (sudo apt-get install ${missing[*]})" >&2
		return 1
	fi
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "missing Debian packages: ${missing[*]}; no apt-get to install them" >&2
		return 1
	fi
	echo "installing Debian packages: ${missing[*]} (apt-get update, apt-get install)"
	log=$(mktemp)
	if ! { apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		rm -f "$log"
		echo "apt-get install ${missing[*]} failed (output above)" >&2
		return 1
	fi
	rm -f "$log"
	echo "installed: ${missing[*]}"
}
