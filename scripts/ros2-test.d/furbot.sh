# Furbot stack (sourced by ros2-test.sh): furbot_bridge, furbot_twist_control
# and furbot_odometry against the simulated vehicle, launched with
# `ros2 launch telebridge furbot.launch.py sim:=true` (furbot-sim on
# 127.0.0.1:tb_port+1, the bridge on tb_port+2: ros2-test.sh). The simulator prints its
# true state and the latest control frame it received every 200 ms into
# the launch log; the checks read it to see what the vehicle really does.

launch furbot furbot.launch.py sim:=true "$sim_furbot_vehicle" "$sim_furbot_bridge"
fb_log="$logs/furbot.log"
fb_bin="$install/telebridge/lib/telebridge"
# fb_note LINE: prints LINE (the check's output) and keeps it for the
# summary printed after the checks, so that the figures of passing checks
# are seen too.
fb_note() {
	echo "$*"
	echo "$*" >>"$logs/furbot.notes"
}

# fb_truth FIELD: the simulator's latest value of x, y, yaw, v or steer.
fb_truth() {
	grep -a 'control frames' "$fb_log" | tail -n 1 | sed -n "s/.* $1 *\([-+0-9.]*\) .*/\1/p"
}
# fb_truth_mean FIELD N: the mean of the simulator's latest N values (N
# prints, 200 ms apart).
fb_truth_mean() {
	grep -a 'control frames' "$fb_log" | tail -n "$2" | sed -n "s/.* $1 *\([-+0-9.]*\) .*/\1/p" |
		awk '{ s += $1; n++ } END { if (n) printf "%.3f\n", s / n }'
}
# fb_control FIELD: the latest control frame the simulator received:
# throttle, brake, flags (1 enable, 2 e-stop) or age [s].
fb_control() {
	grep -a 'last control:' "$fb_log" | tail -n 1 | sed -n "s/.*last control:.* $1 \([-+0-9.]*\).*/\1/p"
}
# fb_odom_x: x of the next odom message [m].
fb_odom_x() {
	timeout 10 ros2 topic echo --once /odom nav_msgs/msg/Odometry --field pose.pose.position.x 2>/dev/null | head -n 1
}
fb_nodes() {
	local l
	l=$(ros2 node list 2>/dev/null)
	grep -qx /furbot_bridge <<<"$l" && grep -qx /furbot_twist_control <<<"$l" && grep -qx /furbot_odometry <<<"$l"
}

check "furbot: the three nodes come up (bridge, twist control, odometry)" within 30 fb_nodes
check "furbot: the simulator receives control frames from the bridge" \
	within 15 grep -aq 'last control:' "$fb_log"
check "furbot: ros2 param list shows each node's table" \
	bash -c 'ros2 param list /furbot_twist_control | grep -q "  kp" && ros2 param list /furbot_bridge | grep -q control_timeout && ros2 param list /furbot_odometry | grep -q wheel_radius'
check "furbot: ros2 param get reads the bridge's vehicle address" \
	bash -c "ros2 param get /furbot_bridge vehicle_address | grep -q \"String value is: 127.0.0.1:$((tb_port + 1))\""
check "furbot: ros2 param set changes a live controller gain (max_speed)" \
	bash -c 'ros2 param set /furbot_twist_control max_speed 4.0 | grep -q "Set parameter successful" && ros2 param get /furbot_twist_control max_speed | grep -q "Double value is: 4.0"'
check "furbot: ros2 param set refuses a read-only one (wheelbase, rate)" \
	bash -c 'ros2 param set /furbot_twist_control wheelbase 2.5 2>&1 | grep -q "read-only" && ros2 param set /furbot_bridge rate 50.0 2>&1 | grep -q "read-only"'

fb_rate() {
	local r
	r=$(timeout 12 ros2 topic hz /furbot/traction --window 200 2>/dev/null | sed -n 's/.*average rate: \([0-9.]*\).*/\1/p' | tail -n 1)
	fb_note "TractionData rate ${r:-none} Hz (bridge rate 100 Hz)"
	[ -n "$r" ] && between "$r" 80 120
}
check "furbot: TractionData arrives at ~100 Hz (ros2 topic hz, 80-120)" fb_rate
check "furbot: TractionData echoes with best-effort QoS, traction running" \
	bash -c 'timeout 10 ros2 topic echo --once --qos-reliability best_effort /furbot/traction telebridge_interfaces/msg/TractionData | grep -q "^state: 2"'
check "furbot: every subsystem works (VehicleStatus.all_working)" \
	bash -c 'timeout 10 ros2 topic echo --once --qos-reliability best_effort /furbot/status telebridge_interfaces/msg/VehicleStatus | grep -q "^all_working: true"'
check "furbot: sensor_msgs/BatteryState from the BMS" \
	bash -c 'timeout 10 ros2 topic echo --once /furbot/battery sensor_msgs/msg/BatteryState | grep -q "^present: true"'
check "furbot: /diagnostics reports the vehicle link" \
	diag_status "/furbot_bridge: vehicle link"

fb_drive() {
	local x0 x1 v
	x0=$(fb_odom_x)
	# 6 s of cmd_vel from its first message (pub_start waits for it).
	pub_start fb_drive -r 20 /cmd_vel geometry_msgs/msg/Twist "{linear: {x: 1.0}}" || return 1
	sleep 6
	v=$(fb_truth_mean v 5)
	x1=$(fb_odom_x)
	pub_stop
	fb_note "odom x ${x0} -> ${x1} m; simulator speed, mean of 5-6 s of cmd_vel 1.0 m/s: ${v} m/s"
	gt "$x1" "$(awk -v a="$x0" 'BEGIN { print a + 2 }')" && between "$v" 0.95 1.05
}
check "furbot: cmd_vel moves odom forward and the simulated vehicle to the commanded speed" fb_drive
# /tf has more than one publisher here (robot_state_publisher's wheel
# links as well), so the first message alone need not be odometry's:
# read /tf for a while and look for base_link among what came.
fb_tf() {
	local out
	out=$(timeout 5 ros2 topic echo /tf tf2_msgs/msg/TFMessage 2>&1)
	grep -q "child_frame_id: base_link" <<<"$out" && return 0
	echo "no transform to base_link on /tf in 5 s; child frames seen (count):"
	grep -o "child_frame_id: .*" <<<"$out" | sort | uniq -c
	return 1
}
check "furbot: tf odom -> base_link on /tf" fb_tf

fb_stale() {
	# cmd_vel ended; the controller's 0.5 s command timeout, then braking
	# from 1 m/s at up to 1.5 m/s^2.
	sleep 4
	local v b f age
	v=$(fb_truth v) b=$(fb_control brake) f=$(fb_control flags) age=$(fb_control age)
	fb_note "4 s after cmd_vel stopped: simulator speed ${v} m/s; latest control frame brake ${b} flags ${f} age ${age} s"
	# Enabled frames with the brake, fresh: the controller's stop, not the
	# simulator's own watchdog.
	between "$v" -0.01 0.01 && gt "$b" 0 && [ "$f" = 1 ] && between "$age" 0 0.1
}
check "furbot: a stale cmd_vel brakes the simulated vehicle to a stop" fb_stale

fb_estop() {
	# The publisher runs until the last sample is read (each service call
	# takes a second or more on a busy machine; a fixed publishing time
	# could end before the check does).
	pub_start fb_estop -r 20 /cmd_vel geometry_msgs/msg/Twist "{linear: {x: 1.0}}" || return 1
	sleep 4
	local v0 v1 b f v2
	v0=$(fb_truth v)
	ros2 service call /furbot_bridge/estop std_srvs/srv/Trigger >/dev/null || return 1
	sleep 2
	v1=$(fb_truth v) b=$(fb_control brake) f=$(fb_control flags)
	ros2 service call /furbot_bridge/release std_srvs/srv/Trigger >/dev/null || return 1
	sleep 2.5
	v2=$(fb_truth v)
	pub_stop
	fb_note "e-stop at ${v0} m/s with cmd_vel 1.0 m/s: 2 s later ${v1} m/s, frames brake ${b} flags ${f}; 2.5 s after release ${v2} m/s"
	gt "$v0" 0.5 && between "$v1" -0.01 0.01 && [ "$b" = 1000 ] && [ "$f" = 2 ] && between "$v2" 0.8 1.05
}
check "furbot: e-stop service stops the simulated vehicle against cmd_vel; release drives again" fb_estop

fb_shutdown() {
	pub_start fb_shutdown -r 20 /cmd_vel geometry_msgs/msg/Twist "{linear: {x: 1.0}}" || return 1
	sleep 4
	local v0 v1 v2 b f
	v0=$(fb_truth v)
	pkill -INT -f "$fb_bin/furbot_bridge" || return 1
	# Within the simulator's 250 ms control watchdog: only the bridge's
	# full-brake frames can be the latest frame this soon.
	sleep 0.2
	b=$(fb_control brake) f=$(fb_control flags)
	sleep 0.3
	v1=$(fb_truth v)
	sleep 2
	v2=$(fb_truth v)
	pub_stop
	fb_note "speed ${v0} m/s when the bridge got SIGINT; its last frame brake ${b} flags ${f}; speed 0.5 s later ${v1}, 2.5 s later ${v2} m/s"
	grep -aq 'vehicle told to stop' "$fb_log" && [ "$b" = 1000 ] && [ "$f" = 0 ] &&
		gt "$v0" 0.5 && gt "$v0" "$v1" && between "$v2" -0.01 0.01
}
check "furbot: SIGINT of the bridge leaves the vehicle braking (full-brake frames, then stopped)" fb_shutdown

fb_twist_term() {
	pkill -TERM -f "$fb_bin/furbot_twist_control" || return 1
	within 5 grep -aq 'full-brake control signals published' "$fb_log"
}
check "furbot: SIGTERM of the twist controller publishes full-brake signals before exit" fb_twist_term

# ros2 launch leaves its processes running when it gets SIGTERM (Humble:
# "using SIGTERM can result in orphaned processes"), and stop_launch can
# only send SIGTERM (SIGINT is ignored in background jobs): stop the
# stack's processes with SIGINT first, as Ctrl-C would.
fb_stop_all() {
	# [f]: the pattern must not match the pgrep's own bash -c.
	pkill -INT -f "$fb_bin/[f]urbot" || true
	within 10 bash -c "! pgrep -f '$fb_bin/[f]urbot' >/dev/null"
}
check "furbot: every process of the stack exits on SIGINT" fb_stop_all
stop_launch
[ -f "$logs/furbot.notes" ] && sed 's/^/     furbot figures: /' "$logs/furbot.notes"
