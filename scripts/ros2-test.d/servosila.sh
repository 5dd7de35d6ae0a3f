# Servosila stack (sourced by ros2-test.sh): servosila_driver against the
# simulated robot, launched with `ros2 launch telebridge servosila.launch.py
# sim:=true`. The simulator prints its true state every 200 ms into the
# launch log; the checks read it to see what the robot really does.

launch servosila servosila.launch.py sim:=true "$sim_servosila"
sv_log="$logs/servosila.log"

# sv_truth FIELD: the simulator's latest value of x, y, yaw, v or w.
sv_truth() {
	grep -a 'link true' "$sv_log" | tail -n 1 | sed -n "s/.* $1 \([-+0-9.]*\) .*/\1/p"
}
# sv_odom_x: x of the next odom message [m].
sv_odom_x() {
	timeout 10 ros2 topic echo --once /odom nav_msgs/msg/Odometry --field pose.pose.position.x 2>/dev/null | head -n 1
}

check "servosila: the driver node comes up" \
	within 30 bash -c 'ros2 node list 2>/dev/null | grep -qx /servosila_driver'
check "servosila: the simulator hears the driver (link up)" \
	within 15 grep -aq 'link true' "$sv_log"
check "servosila: ros2 param list shows the table" \
	bash -c 'ros2 param list /servosila_driver | grep -q calibration.linear'
check "servosila: ros2 param get reads a default" \
	bash -c 'ros2 param get /servosila_driver min_start_velocity | grep -q "Double value is: 0.2"'
check "servosila: ros2 param set refuses a read-only one" \
	bash -c 'ros2 param set /servosila_driver send_rate 10.0 2>&1 | grep -q "read-only"'

sv_rate() {
	local r
	r=$(timeout 12 ros2 topic hz /servosila_driver/telemetry --window 20 2>/dev/null | sed -n 's/.*average rate: \([0-9.]*\).*/\1/p' | tail -n 1)
	echo "telemetry rate ${r:-none} Hz (simulator sends 5 Hz)"
	[ -n "$r" ] && between "$r" 4 6
}
check "servosila: telemetry arrives at the simulator's 5 Hz" sv_rate

# sv_truth_while_driving TWIST SECONDS FIELD: publishes TWIST on cmd_vel at
# 10 Hz and prints the simulator's FIELD SECONDS after the first message.
sv_truth_while_driving() {
	pub_start sv_drive -r 10 /cmd_vel geometry_msgs/msg/Twist "$1" || { pub_stop; return 1; }
	sleep "$2"
	sv_truth "$3"
	pub_stop
}

sv_drive() {
	local x0 x1 v
	x0=$(sv_odom_x)
	v=$(sv_truth_while_driving "{linear: {x: 0.3}}" 3 v)
	x1=$(sv_odom_x)
	echo "odom x ${x0} -> ${x1} m; simulator speed while driving ${v} m/s (commanded 0.3)"
	gt "$x1" "$(awk -v a="$x0" 'BEGIN { print a + 0.3 }')" && between "$v" 0.27 0.33
}
check "servosila: cmd_vel moves odom forward and the robot at the commanded speed" sv_drive

sv_timeout() {
	sleep 1.5
	local v
	v=$(sv_truth v)
	echo "simulator speed 1.5 s after cmd_vel stopped: ${v} m/s"
	between "$v" -0.001 0.001
}
check "servosila: the robot stops when cmd_vel goes silent (command timeout)" sv_timeout

sv_estop() {
	local v
	ros2 service call /servosila_driver/estop std_srvs/srv/Trigger >/dev/null || return 1
	v=$(sv_truth_while_driving "{linear: {x: 0.3}}" 3 v)
	echo "simulator speed with e-stop latched and cmd_vel at 0.3 m/s: ${v} m/s"
	between "$v" -0.001 0.001
}
check "servosila: e-stop stops the simulated robot and latches against cmd_vel" sv_estop

sv_release() {
	local v
	ros2 service call /servosila_driver/release std_srvs/srv/Trigger >/dev/null || return 1
	v=$(sv_truth_while_driving "{linear: {x: -0.3}}" 2 v)
	echo "simulator speed after release with cmd_vel -0.3 m/s: ${v} m/s"
	between "$v" -0.33 -0.27
}
check "servosila: after release the robot drives again" sv_release

sv_live_limit() {
	local v
	ros2 param set /servosila_driver max_linear 0.2 | grep -q "Set parameter successful" || return 1
	v=$(sv_truth_while_driving "{linear: {x: 0.3}}" 2 v)
	ros2 param set /servosila_driver max_linear 0.45 >/dev/null
	echo "simulator speed with max_linear set live to 0.2 and cmd_vel 0.3 m/s: ${v} m/s"
	between "$v" 0.19 0.21
}
check "servosila: ros2 param set max_linear takes effect on the running robot" sv_live_limit
check "servosila: ros2 param set refuses an invalid value" \
	bash -c 'ros2 param set /servosila_driver max_linear 50.0 2>&1 | grep -q "failed"'

check "servosila: /diagnostics reports the robot link" \
	diag_status "/servosila_driver: robot link"

sv_shutdown() {
	pub_start sv_turn -r 10 /cmd_vel geometry_msgs/msg/Twist "{angular: {z: 0.5}}" || { pub_stop; return 1; }
	sleep 1.5
	local w0
	w0=$(sv_truth w)
	echo "simulator yaw rate while turning: ${w0} rad/s"
	pkill -INT -f "$install/telebridge/lib/telebridge/servosila_driver" || return 1
	# Well inside the simulator's own 1 s link timeout: only the driver's
	# zero packets can have stopped it this soon.
	sleep 0.4
	local w
	w=$(sv_truth w)
	pub_stop
	echo "simulator yaw rate after the driver was interrupted while turning: ${w} rad/s"
	between "$w0" 0.45 0.55 && grep -aq 'robot told to stop' "$sv_log" && between "$w" -0.001 0.001
}
check "servosila: SIGINT stops the robot before the driver exits" sv_shutdown
stop_launch
