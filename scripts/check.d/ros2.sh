#!/usr/bin/env bash
# The ROS 2 layer (the ros2-tagged packages and the colcon package).
#
# Always: type-check the ros2-tagged code without ROS headers
# (internal/tools/ros2typecheck). Where ROS 2 Humble is installed at
# /opt/ros/humble: check the type-check's interface stubs against the
# installed definitions, colcon build the package in a scratch workspace and
# run the ROS 2 integration tests (scripts/ros2-test.sh) on loopback DDS.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"

echo "ros2: type-check of the ros2-tagged packages"
go run ./internal/tools/ros2typecheck

if [ ! -f /opt/ros/humble/setup.bash ]; then
	cat <<'MSG'
ros2: SKIPPED the colcon build and the ROS 2 integration tests: ROS 2 Humble
      is not installed at /opt/ros/humble, and the package registries this
      machine reaches do not carry it. The ros2-tagged layer was type-checked
      only (above).
MSG
	exit 0
fi

# shellcheck source=../ros2-env.sh
source "$repo/scripts/ros2-env.sh"
command -v colcon >/dev/null || { echo "ros2: ROS 2 is installed but colcon is not on PATH" >&2; exit 1; }

echo "ros2: interface stubs against /opt/ros/humble"
go run ./internal/tools/ros2typecheck -verify-stubs /opt/ros/humble

ws=$(mktemp -d /tmp/telebridge-ws.XXXXXX)
trap 'rm -rf "$ws"' EXIT
mkdir -p "$ws/src"
ln -s "$repo" "$ws/src/telebridge"
echo "ros2: colcon build in $ws"
start=$SECONDS
if ! (cd "$ws" && colcon build --event-handlers console_cohesion- >"$ws/colcon.log" 2>&1); then
	tail -n 60 "$ws/colcon.log"
	echo "ros2: colcon build FAILED" >&2
	exit 1
fi
echo "ros2: colcon build passed in $((SECONDS - start)) s"

bash "$repo/scripts/ros2-test.sh" "$ws/install"
