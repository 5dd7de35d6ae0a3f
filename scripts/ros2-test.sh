#!/usr/bin/env bash
# ros2-test.sh INSTALL_DIR
#
# ROS 2 integration tests against a colcon install of telebridge: each stack
# is launched with its simulator (ros2 launch ... sim:=true) and checked from
# separate processes with the stock ros2 CLI, on loopback DDS with a
# test-only domain id (scripts/ros2-env.sh). Prints one line per check and
# "N passed, N failed" at the end; exits 1 if any check failed.
#
# TELEBRIDGE_TEST_STACKS (optional): space-separated stacks to run (the names
# of scripts/ros2-test.d/*.sh); default all. TELEBRIDGE_TEST_DOMAIN_ID picks
# the DDS domain (default 142), so that test runs side by side do not meet.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 INSTALL_DIR" >&2; exit 2; }
install=$(cd "$1" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=ros2-env.sh
source "$repo/scripts/ros2-env.sh"
set +u
# shellcheck disable=SC1091
source "$install/setup.bash"
set -u

logs=$(mktemp -d /tmp/telebridge-ros2-test.XXXXXX)
# The simulators' loopback ports of this run, apart per DDS domain, so that
# test runs side by side (TELEBRIDGE_TEST_DOMAIN_ID) do not meet on a port:
# base + 0 Servosila (sim_port), + 1 and + 2 Furbot vehicle and bridge
# (sim_vehicle_port, sim_bridge_port), + 3 to + 5 the reboot checks.
tb_port=$((20000 + 10 * ROS_DOMAIN_ID))
sim_servosila="sim_port:=$tb_port"
sim_furbot_vehicle="sim_vehicle_port:=$((tb_port + 1))"
sim_furbot_bridge="sim_bridge_port:=$((tb_port + 2))"
passed=0 failed=0
launched=()
# Each launch runs in its own process group (setsid), and is stopped by
# signalling the whole group: a non-interactive shell starts background jobs
# with SIGINT ignored, and ros2 launch stopped alone with SIGTERM can leave
# its nodes behind, where they would answer the next test's service calls.
# SIGTERM first (the nodes stop their robots), SIGKILL after 15 s.
terminate() {
	local pid=$1
	kill -TERM -- "-$pid" 2>/dev/null || return 0
	for _ in $(seq 30); do
		if ! pgrep -g "$pid" >/dev/null 2>&1; then
			wait "$pid" 2>/dev/null || true
			return 0
		fi
		sleep 0.5
	done
	echo "ros2-test: process group $pid ignored SIGTERM for 15 s; killing it" >&2
	kill -KILL -- "-$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
cleanup() {
	for pid in "${launched[@]}"; do
		terminate "$pid"
	done
	ros2 daemon stop >/dev/null 2>&1 || true
}
trap cleanup EXIT

# check DESCRIPTION COMMAND...: runs a check, prints PASS or FAIL.
check() {
	local desc=$1
	shift
	if "$@" >"$logs/last.out" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $desc"
	else
		failed=$((failed + 1))
		echo "FAIL $desc"
		sed 's/^/     | /' "$logs/last.out" | tail -n 15
	fi
}

# within SECONDS COMMAND...: retries COMMAND until it succeeds (graph
# discovery takes a moment) or SECONDS pass.
within() {
	local limit=$1
	shift
	local end=$((SECONDS + limit))
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.5
	done
}

# gt A B: A > B as numbers; between X LO HI: LO <= X <= HI.
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }
between() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'; }

# pub_start NAME ARGS...: starts `ros2 topic pub ARGS...` in the background
# (its pid in pub_pid, its output in $logs/NAME.pub) and returns once it has
# published its first message (at most 15 s): the CLI takes a second or
# more to start on a busy machine, which a fixed sleep would count as
# driving time. pub_stop ends it.
pub_start() {
	local name=$1
	shift
	PYTHONUNBUFFERED=1 ${pub_prio:+chrt -r "$pub_prio"} timeout 60 ros2 topic pub "$@" >"$logs/$name.pub" 2>&1 &
	pub_pid=$!
	for _ in $(seq 150); do
		grep -q 'publishing #1' "$logs/$name.pub" && return 0
		sleep 0.1
	done
	echo "pub_start $name: nothing published within 15 s" >&2
	return 1
}
pub_stop() {
	kill -INT "$pub_pid" 2>/dev/null || true
	wait "$pub_pid" 2>/dev/null || true
}

# js_record SECONDS FILE: records joint_states as CSV lines (stamp sec,
# nanosec, frame, names..., positions..., velocities..., efforts...); jn()
# in the awk programs of the stacks counts the names (the fields after the frame
# that are not numbers).
# The SECONDS count from the first message: the CLI takes a second or more
# to start on a busy machine (at most 15 s are waited for it); its stderr
# goes to FILE.err.
js_record() {
	PYTHONUNBUFFERED=1 timeout -s INT $((${1%.*} + 20)) ros2 topic echo --csv /joint_states sensor_msgs/msg/JointState >"$2" 2>"$2.err" &
	local pid=$!
	for _ in $(seq 150); do
		[ -s "$2" ] && break
		sleep 0.1
	done
	sleep "$1"
	kill -INT "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
# js_last FILE: the last recorded positions, space-separated.
js_last() {
	awk -F, 'function jn(  i) { for (i = 4; i <= NF && $i !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/; i++) ; return i - 4 } NF > 3 { n = jn(); s = ""; for (i = 4 + n; i < 4 + 2 * n; i++) s = s " " $i; last = s } END { print substr(last, 2) }' "$1"
}

# js_record_motion FILE: starts recording joint_states into FILE (as
# js_record) and returns once the first message is in; js_motion_wait
# ends it. A motion is so recorded whole however long the CLI calls that
# start it take on a busy machine.
js_record_motion() {
	PYTHONUNBUFFERED=1 timeout -s INT 50 ros2 topic echo --csv /joint_states sensor_msgs/msg/JointState >"$1" 2>"$1.err" &
	js_motion_pid=$!
	for _ in $(seq 150); do
		[ -s "$1" ] && break
		sleep 0.1
	done
}
# js_motion_wait FILE: ends the recording js_record_motion started once
# the arm moved and then held still for 1 s by joint_states' own stamps
# (a recorder starved of CPU does not count as the arm at rest), or after
# 30 s.
js_motion_wait() {
	local end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ]; do
		sleep 0.5
		awk -F, 'function jn(  i) { for (i = 4; i <= NF && $i !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/; i++) ; return i - 4 }
			NF > 3 { n = jn(); s = ""; for (i = 4 + n; i < 4 + 2 * n; i++) s = s " " $i; ts = $1 + $2 / 1e9
				if (prev != "" && s != prev) changed = ts; prev = s; last = ts }
			END { exit !(changed != "" && last - changed >= 1.0) }' "$1" && break
	done
	kill -INT "$js_motion_pid" 2>/dev/null || true
	wait "$js_motion_pid" 2>/dev/null || true
}

# near A B TOL: every element of the space-separated lists A and B within
# TOL.
near() {
	awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN { n = split(a, x, " "); m = split(b, y, " "); if (n != m || n == 0) exit 1
		for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d > tol || -d > tol) exit 1 } }'
}

# beats_start: jog heartbeats on /heartbeat at 20 Hz (every 50 ms, well
# inside jog_server's 0.2 s), started with pub_start (output in
# $logs/beats.pub). A move must not start before they flow: after the
# first one out, 1 s more for discovery to match jog_server's
# subscription. beats_stop ends them.
# The publisher runs at a real-time priority (chrt -r 10), as an operator's
# deadman source would: on a loaded machine a normal-priority Python
# publisher can pause longer than the 0.2 s timeout, and jog_server then
# rightly stops the arm ("motion ended: heartbeat timeout" in its log).
beats_start() {
	pub_prio=10 pub_start beats -r 20 /heartbeat std_msgs/msg/Bool "{data: true}"
	beats_pid=$pub_pid
	sleep 1
}
beats_stop() {
	kill -TERM "$beats_pid" 2>/dev/null || true
	wait "$beats_pid" 2>/dev/null || true
}

# joint_move DELTA VALUES: calls jog_server's start-joint-move service
# (the reply goes to $logs/jog-calls.log); succeeds if the request was
# accepted. (grep without -q: with pipefail, an early exit of grep would
# fail tee.)
joint_move() {
	ros2 service call /remotecontrol_start_move_joints telebridge_interfaces/srv/StartJointMove \
		"{move_delta: $1, joint_values: [$2], speed: 1.0}" | tee -a "$logs/jog-calls.log" | grep 'success=True' >/dev/null
}

# diag_status NAME [SECONDS]: the first status named NAME (every node
# names its statuses "<fully qualified node name>: <component>") on
# /diagnostics within SECONDS (default 10), printed as "level N",
# "message TEXT" and one "key: value" line per value; fails without one.
# Several nodes publish /diagnostics, so one `ros2 topic echo --once`
# may not hold it.
diag_status() {
	/usr/bin/python3 - "$1" "${2:-10}" <<'PY'
import sys, time
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
name, limit = sys.argv[1], float(sys.argv[2])
rclpy.init()
node = rclpy.create_node("diag_status")
found = []
node.create_subscription(DiagnosticArray, "/diagnostics",
    lambda m: found.extend(s for s in m.status if s.name == name and not found), 50)
end = time.monotonic() + limit
while not found and time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
if not found:
    print(f"no status named {name!r} on /diagnostics within {limit:g} s")
    sys.exit(1)
s = found[0]
print(f"level {s.level[0] if isinstance(s.level, bytes) else s.level}")
print(f"message {s.message}")
for kv in s.values:
    print(f"{kv.key}: {kv.value}")
PY
}

# launch NAME ARGS...: starts `ros2 launch telebridge ARGS...` in the
# background, logging to $logs/NAME.log.
launch() {
	local name=$1
	shift
	start "$name" ros2 launch telebridge "$@"
}

# start NAME CMD...: starts CMD as launch does, in its own process group
# logging to $logs/NAME.log, among the launches (cleanup stops it if the
# run ends early; stop_launch stops the newest).
start() {
	local name=$1
	shift
	setsid "$@" >"$logs/$name.log" 2>&1 &
	launched+=($!)
}

# stop_launch: stops the newest launch and waits for it (the nodes stop
# their robots on the way out).
stop_launch() {
	terminate "${launched[-1]}"
	unset 'launched[-1]'
}

echo "ros2-test: logs in $logs"
check "telebridge_interfaces/msg/ServosilaTelemetry is installed" \
	ros2 interface show telebridge_interfaces/msg/ServosilaTelemetry
check "ros2 pkg lists telebridge and telebridge_interfaces" \
	bash -c 'ros2 pkg list | grep -qx telebridge && ros2 pkg list | grep -qx telebridge_interfaces'

for stack in "$repo"/scripts/ros2-test.d/*.sh; do
	[ -e "$stack" ] || continue
	if [ -n "${TELEBRIDGE_TEST_STACKS:-}" ] && [[ " $TELEBRIDGE_TEST_STACKS " != *" $(basename "$stack" .sh) "* ]]; then
		echo "ros2-test: $(basename "$stack" .sh) not selected (TELEBRIDGE_TEST_STACKS)"
		continue
	fi
	echo "ros2-test: $(basename "$stack" .sh)"
	# shellcheck disable=SC1090
	source "$stack"
done

echo "ros2-test: $passed passed, $failed failed"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
