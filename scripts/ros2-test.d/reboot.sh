# Reboot checks (sourced by ros2-test.sh; issue 12): each machine's
# simulator is started by this script rather than by the launch file, so
# that it can be killed (SIGKILL: a robot losing power) in the middle of a
# drive and started again on the same port. The ROS driver keeps running;
# the checks require that it is the same process after the reboot, that the
# new simulator sees it and drives as commanded, and that the odometry did
# not jump across the reboot. Truth comes from the simulators' own prints.
# The ports (ros2-test.sh's tb_port + 3 to + 5) differ from the sim:=true
# ports so that a stack left behind by another check cannot answer.

rb_bin="$install/telebridge/lib/telebridge"
rb_servosila_port=$((tb_port + 3)) rb_vehicle_port=$((tb_port + 4)) rb_bridge_port=$((tb_port + 5))
rb_sims=()

# rb_sim NAME ARGS...: starts a simulator binary in its own process group,
# logging to $logs/NAME.log; its pid goes to rb_sims.
rb_sim() {
	local name=$1
	shift
	setsid "$@" >"$logs/$name.log" 2>&1 &
	rb_sims+=($!)
}
# rb_kill: kills the newest simulator at once (no stop packets, no goodbye).
rb_kill() {
	kill -KILL -- "-${rb_sims[-1]}" 2>/dev/null || true
	wait "${rb_sims[-1]}" 2>/dev/null || true
	unset 'rb_sims[-1]'
}
rb_cleanup() {
	while [ ${#rb_sims[@]} -gt 0 ]; do rb_kill; done
}

# rb_field LOG PATTERN FIELD: FIELD of the latest line matching PATTERN.
rb_field() {
	grep -a "$2" "$1" | tail -n 1 | sed -n "s/.* $3 *\([-+0-9.]*\) .*/\1/p"
}
rb_odom_x() {
	timeout 10 ros2 topic echo --once /odom nav_msgs/msg/Odometry --field pose.pose.position.x 2>/dev/null | head -n 1
}

# --- Servosila: robot on 127.0.0.1:$rb_servosila_port, the robot rebooted mid-drive.
rb_sim reboot_servosila_1 "$rb_bin/servosila-sim" --listen 127.0.0.1:$rb_servosila_port --telemetry-rate 5 --print 200ms
launch reboot_servosila servosila.launch.py robot_address:=127.0.0.1:$rb_servosila_port description:=false
check "reboot: servosila driver up and the first robot hears it" \
	within 30 grep -aq 'link true' "$logs/reboot_servosila_1.log"

rb_servosila() {
	local pid x1 v odom0 odom1 diag
	pid=$(pgrep -f "$rb_bin/servosila_driver" | head -n 1)
	# cmd_vel flows from here until pub_stop, however long the CLI calls
	# in between take.
	pub_start reboot_servosila_cmd -r 10 /cmd_vel geometry_msgs/msg/Twist "{linear: {x: 0.3}}" || return 1
	sleep 3
	rb_kill
	sleep 2 # longer than the vendor's 1 s link timeout
	# While the robot is gone: diagnostics say so, and the dead reckoning
	# has stopped (read here, the odometry must gain no more than what the
	# rebooted robot drives).
	diag=$(diag_status "/servosila_driver: robot link" 5 | grep -ai 'link lost' | head -n 1)
	odom0=$(rb_odom_x)
	rb_sim reboot_servosila_2 "$rb_bin/servosila-sim" --listen 127.0.0.1:$rb_servosila_port --telemetry-rate 5 --print 200ms
	sleep 5
	v=$(rb_field "$logs/reboot_servosila_2.log" 'link true' v)
	# Compared at rest: the drive ends (cmd_vel stops, the driver's command
	# timeout stops the robot), then the truth and the odometry are read, so
	# that the seconds a ros2 CLI call takes do not count as motion.
	pub_stop
	sleep 1.5
	x1=$(rb_field "$logs/reboot_servosila_2.log" 'link true' x)
	odom1=$(rb_odom_x)
	{
		echo "servosila: driver pid before ${pid}, after $(pgrep -f "$rb_bin/servosila_driver" | head -n 1)"
		echo "servosila: diagnostics while the robot was down: ${diag:-nothing about a lost link}"
		echo "servosila: rebooted robot: x ${x1:-none} m, v ${v:-none} m/s (cmd_vel 0.3); odom x ${odom0} (robot down) -> ${odom1} m"
	} | tee -a "$logs/reboot.notes"
	[ -n "$pid" ] && pgrep -f "$rb_bin/servosila_driver" | grep -qx "$pid" && [ -n "$diag" ] &&
		[ -n "$x1" ] && gt "$x1" 0.5 && between "$v" 0.27 0.33 &&
		between "$(awk -v a="$odom0" -v b="$odom1" 'BEGIN { print b - a }')" \
			"$(awk -v x="$x1" 'BEGIN { print x - 0.2 }')" "$(awk -v x="$x1" 'BEGIN { print x + 0.1 }')"
}
check "servosila: the driver recovers from a robot reboot mid-drive (same process, link loss in diagnostics, no odometry jump)" rb_servosila
stop_launch
rb_cleanup

# --- Furbot: bridge on 127.0.0.1:$rb_bridge_port, vehicle on 127.0.0.1:$rb_vehicle_port.
rb_sim reboot_furbot_1 "$rb_bin/furbot-sim" --listen 127.0.0.1:$rb_vehicle_port --status-to 127.0.0.1:$rb_bridge_port --print 200ms
launch reboot_furbot furbot.launch.py vehicle_address:=127.0.0.1:$rb_vehicle_port listen:=127.0.0.1:$rb_bridge_port description:=false
check "reboot: furbot bridge up and the first vehicle gets control frames" \
	within 30 grep -aq 'last control:' "$logs/reboot_furbot_1.log"

rb_furbot() {
	local pid x1 v odom0 odom1
	pid=$(pgrep -f "$rb_bin/furbot_bridge" | head -n 1)
	pub_start reboot_furbot_cmd -r 20 /cmd_vel geometry_msgs/msg/Twist "{linear: {x: 1.0}}" || return 1
	sleep 6
	rb_kill
	sleep 1.5
	# The vehicle is gone: no status frames, no odometry to add from here.
	odom0=$(rb_odom_x)
	rb_sim reboot_furbot_2 "$rb_bin/furbot-sim" --listen 127.0.0.1:$rb_vehicle_port --status-to 127.0.0.1:$rb_bridge_port --print 200ms
	# The vehicle's start-up sequence, then the drive resumes.
	sleep 15
	v=$(rb_field "$logs/reboot_furbot_2.log" 'control frames' v)
	# Compared at rest (see the Servosila check): the drive ends, the
	# controller brakes the vehicle to a stop, then both are read.
	pub_stop
	sleep 4
	x1=$(rb_field "$logs/reboot_furbot_2.log" 'control frames' x)
	odom1=$(rb_odom_x)
	{
		echo "furbot: bridge pid before ${pid}, after $(pgrep -f "$rb_bin/furbot_bridge" | head -n 1)"
		echo "furbot: rebooted vehicle: x ${x1:-none} m, v ${v:-none} m/s (cmd_vel 1.0); odom x ${odom0} (vehicle down) -> ${odom1} m"
	} | tee -a "$logs/reboot.notes"
	[ -n "$pid" ] && pgrep -f "$rb_bin/furbot_bridge" | grep -qx "$pid" &&
		[ -n "$x1" ] && gt "$x1" 1 && between "$v" 0.9 1.1 &&
		# The new vehicle's odometer restarts from zero: the odometry
		# gains what it drove, within 0.2 m, and no jump.
		between "$(awk -v a="$odom0" -v b="$odom1" 'BEGIN { print b - a }')" \
			"$(awk -v x="$x1" 'BEGIN { print x - 0.2 }')" "$(awk -v x="$x1" 'BEGIN { print x + 0.2 }')"
}
check "furbot: the bridge recovers from a vehicle reboot mid-drive, same process, odometry continuous" rb_furbot
stop_launch
rb_cleanup
[ -f "$logs/reboot.notes" ] && sed 's/^/     reboot figures: /' "$logs/reboot.notes"
