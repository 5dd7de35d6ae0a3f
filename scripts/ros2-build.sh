#!/usr/bin/env bash
# ros2-build.sh BUILD_DIR BIN_DIR NODE...
#
# Generates the Go bindings of the ROS 2 interfaces the nodes use (standard
# ones from the sourced ROS 2 installation, telebridge_interfaces from
# interfaces/) with the rclgo-gen pinned in go.mod, then builds each node
# (cmd/NODE, `go build -tags ros2`) into BIN_DIR.
#
# CMakeLists.txt calls it during `colcon build` once telebridge_interfaces'
# C typesupport exists in BUILD_DIR/interfaces. It needs a sourced ROS 2
# Humble (AMENT_PREFIX_PATH). The bindings go to internal/rosmsg/ (ignored by
# git): rclgo-gen bakes the include and library paths of the installation
# into them, so they are made on the machine that builds.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR BIN_DIR NODE..." >&2; exit 2; }
build=$(cd "$1" && pwd) bindir=$2
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
GO=${GO:-go}
: "${AMENT_PREFIX_PATH:?source /opt/ros/humble/setup.bash first}"
export GONOSUMDB=${GONOSUMDB:-github.com/tiiuae}

# rclgo-gen reads the package name from the folder above msg/, so stage our
# definitions as an installed package would have them.
stage="$build/rclgo-roots/share/telebridge_interfaces"
rm -rf "$build/rclgo-roots"
mkdir -p "$stage"
for kind in msg srv; do
	if compgen -G "$src/interfaces/$kind/*.$kind" >/dev/null; then
		cp -r "$src/interfaces/$kind" "$stage/"
	fi
done

# The interface packages the nodes use (the same set as the type-check's
# stubs, plus our own); rclgo-gen adds their dependencies.
include=()
for dir in "$src"/internal/tools/ros2typecheck/stubs/share/*/; do
	include+=(--include-package-deps "$(basename "$dir")")
done
[ -d "$stage/msg" ] || [ -d "$stage/srv" ] && include+=(--include-package-deps telebridge_interfaces)

log="$build/rclgo-gen.log"
rm -rf "$src/internal/rosmsg"
(cd "$src" && ROS_DISTRO=humble "$GO" tool rclgo-gen generate \
	--root-path "$AMENT_PREFIX_PATH" --root-path "$build/rclgo-roots" \
	--dest-path "$src/internal/rosmsg" \
	--message-module-prefix github.com/telebridge/telebridge/internal/rosmsg \
	--cgo-flags-path= "${include[@]}") >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
if grep -E '^(Error|Failed)' "$log" >&2; then
	echo "ros2-build: rclgo-gen could not generate every binding (log: $log)" >&2
	exit 1
fi

# Our own typesupport comes from the build tree; ROS 2's from its prefix.
# --disable-new-dtags writes RPATH (not RUNPATH), which also covers the
# libraries' own dependencies, so a node starts without LD_LIBRARY_PATH.
ifc="$build/interfaces"
export CGO_CFLAGS="-I$ifc/rosidl_generator_c ${CGO_CFLAGS:-}"
export CGO_LDFLAGS="-L$ifc -Wl,--disable-new-dtags ${CGO_LDFLAGS:-}"
mkdir -p "$bindir"
for node in "$@"; do
	(cd "$src" && "$GO" build -tags ros2 -o "$bindir/$node" "./cmd/$node")
done
