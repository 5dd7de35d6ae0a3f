#!/usr/bin/env bash
# debian-packages.sh: the Debian packages the build and the tests need,
# installed when missing. Sourced by scripts/check.sh and scripts/run.sh.
#
#   libx264-164  H.264 encoder, loaded at run time by pkg/video (purego:
#                the build needs only Go); without it the cameras fall
#                back to MJPEG and the console says so
#   libyuv0      camera pixel conversion (YUYV/UYVY to I420), loaded at
#                run time; without it pkg/video's Go conversion runs
#   ffmpeg       the video tests decode RTP and H.264 with it
#   libegl1, libgles2, libgl1-mesa-dri
#                headless EGL, OpenGL ES and Mesa's llvmpipe for the rendered
#                cameras (pkg/render, loaded at run time: without them the
#                build works and the cameras fall back to test patterns)
#   libode8      the training world's physics (ODE 0.16, pkg/physics):
#                loaded at run time (purego), so the build does not need
#                it; its tests skip without it
#
# TELEBRIDGE_CHECK_PACKAGES are needed by scripts/check.sh only:
#   libx264-dev gcc  TestX264Layout compares pkg/video's x264 structures
#                    with x264.h
#
# need_debian_packages [PACKAGE...] installs the packages named (default
# TELEBRIDGE_DEBIAN_PACKAGES) and prints what it does. It returns 0 when every package
# is there (or was installed), 1 with the reason on stderr when some are
# missing and cannot be installed (not root, no apt-get, apt-get failed).
TELEBRIDGE_DEBIAN_PACKAGES="libx264-164 libyuv0 ffmpeg libegl1 libgles2 libgl1-mesa-dri libode8"
TELEBRIDGE_CHECK_PACKAGES="libx264-dev gcc"

need_debian_packages() {
	local missing=() p log
	for p in ${*:-$TELEBRIDGE_DEBIAN_PACKAGES}; do
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
