#!/usr/bin/env bash
# ros2-build.sh BUILD_DIR BIN_DIR
#
# Generates the Go bindings of the ROS 2 interfaces the nodes use (standard
# ones from the sourced ROS 2 installation, telebridge_interfaces from
# interfaces/) with the rclgo-gen pinned in go.mod, then builds into BIN_DIR
# every node (each cmd/NAME whose main is built with the ros2 tag) and the
# simulators (cmd/*-sim) that launch files start with sim:=true.
#
# CMakeLists.txt calls it during `colcon build` once telebridge_interfaces'
# C typesupport exists in BUILD_DIR/interfaces. It needs a sourced ROS 2
# Humble (AMENT_PREFIX_PATH). rclgo-gen bakes the include and library paths
# of the installation into the bindings, so they are made on the machine that
# builds, in BUILD_DIR/rosmsg as a module of their own
# (github.com/telebridge/telebridge/internal/rosmsg) joined to the source by
# BUILD_DIR/go.work: the source tree stays clean, and `go vet ./...` there
# never meets cgo code whose headers live in a build directory.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR BIN_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) bindir=$2
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
gen="$build/rosmsg"
rm -rf "$gen"
(cd "$src" && ROS_DISTRO=humble "$GO" tool rclgo-gen generate \
	--root-path "$AMENT_PREFIX_PATH" --root-path "$build/rclgo-roots" \
	--dest-path "$gen" \
	--message-module-prefix github.com/telebridge/telebridge/internal/rosmsg \
	--cgo-flags-path= "${include[@]}") >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
if grep -E '^(Error|Failed)' "$log" >&2; then
	echo "ros2-build: rclgo-gen could not generate every binding (log: $log)" >&2
	exit 1
fi

rclgo=$(cd "$src" && "$GO" list -m -f '{{.Version}}' github.com/tiiuae/rclgo)
# go.work must name at least the go version of every module it uses.
gover=$(awk '$1 == "go" { print $2; exit }' "$src/go.mod")
printf 'module github.com/telebridge/telebridge/internal/rosmsg\n\ngo %s\n\nrequire github.com/tiiuae/rclgo %s\n' "$gover" "$rclgo" >"$gen/go.mod"
cp "$src/go.sum" "$gen/go.sum"
printf 'go %s\n\nuse (\n\t%s\n\t%s\n)\n' "$gover" "$src" "$gen" >"$build/go.work"
export GOWORK="$build/go.work"

# Our own typesupport comes from the build tree; ROS 2's from its prefix.
# --disable-new-dtags writes RPATH (not RUNPATH), which also covers the
# libraries' own dependencies, so a node starts without LD_LIBRARY_PATH.
ifc="$build/interfaces"
export CGO_CFLAGS="-I$ifc/rosidl_generator_c ${CGO_CFLAGS:-}"
export CGO_LDFLAGS="-L$ifc -Wl,--disable-new-dtags ${CGO_LDFLAGS:-}"
mkdir -p "$bindir"
cd "$src"
nodes=$( (grep -l '^//go:build ros2' cmd/*/*.go 2>/dev/null || true) | xargs -r -n1 dirname | sort -u)
for dir in $nodes; do
	echo "ros2-build: node $(basename "$dir")"
	"$GO" build -tags ros2 -o "$bindir/$(basename "$dir")" "./$dir"
done
for dir in cmd/*-sim; do
	[ -d "$dir" ] || continue
	echo "ros2-build: simulator $(basename "$dir")"
	"$GO" build -o "$bindir/$(basename "$dir")" "./$dir"
done
