# twist_mux stack (sourced by ros2-test.sh): servosila.launch.py with
# twist_mux:=true (params/twist_mux.yaml) against the simulated robot on
# 127.0.0.1:tb_port+6. A fake Nav2 publishes on cmd_vel_nav, a fake
# operator on cmd_vel_teleop, the e-stop lock goes on e_stop; the checks
# judge by the simulator's truth (its speed, printed every 200 ms), not by
# receipt times. Then the console with twist_mux:=true, and the driver
# with cmd_vel_stamped (TwistStamped, refused when stale by its stamp).

mx_port=$((tb_port + 6))
launch mux servosila.launch.py sim:=true twist_mux:=true "sim_port:=$mx_port"
mx_log="$logs/mux.log"
mx_nav_v=0.25    # the fake Nav2's speed [m/s]
mx_teleop_v=0.4  # the fake operator's speed [m/s] (below max_linear 0.45)

# mx_settled LOG LO HI: the simulator's last 5 speeds in LOG (1 s of
# prints) are all within [LO, HI]; prints them.
mx_settled() {
	local vs
	vs=$(grep -a 'link true' "$1" | tail -n 5 | sed -n 's/.* v \([-+0-9.]*\) .*/\1/p' | tr '\n' ' ')
	echo "simulator speeds (last 1 s): $vs"
	[ "$(wc -w <<<"$vs")" -eq 5 ] || return 1
	for v in $vs; do between "$v" "$2" "$3" || return 1; done
}
# mx_reach LOG LO HI SECONDS: mx_settled within SECONDS.
mx_reach() {
	local end=$((SECONDS + $4))
	until mx_settled "$1" "$2" "$3" >"$logs/mux.reach" 2>&1; do
		if [ $SECONDS -ge $end ]; then
			cat "$logs/mux.reach"
			return 1
		fi
		sleep 0.5
	done
	cat "$logs/mux.reach"
	# Kept for the figures printed after the checks.
	sed "s/^/[$(basename "$1" .log) $2..$3] /" "$logs/mux.reach" >>"$logs/mux.notes"
}
# mx_pub NAME TOPIC TYPE VALUES: a background publisher at 10 Hz (pid in
# mx_pid once its first message is out).
mx_pub() {
	pub_start "$1" -r 10 "$2" "$3" "$4" || return 1
	mx_pid=$pub_pid
}
mx_kill() {
	kill -INT "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

mx_up() {
	local l
	l=$(ros2 node info /twist_mux 2>/dev/null) || return 1
	grep -q '/cmd_vel_teleop: geometry_msgs/msg/Twist' <<<"$l" && grep -q '/cmd_vel_nav: geometry_msgs/msg/Twist' <<<"$l" &&
		grep -q '/e_stop: std_msgs/msg/Bool' <<<"$l" && grep -q '/cmd_vel: geometry_msgs/msg/Twist' <<<"$l"
}
check "mux: twist_mux comes up between cmd_vel_teleop, cmd_vel_nav, the lock e_stop and cmd_vel" within 30 mx_up
check "mux: the simulator hears the driver (link up)" within 15 grep -aq 'link true' "$mx_log"

mx_nav_pid=0 mx_teleop_pid=0
mx_nav() {
	mx_pub mx_nav /cmd_vel_nav geometry_msgs/msg/Twist "{linear: {x: $mx_nav_v}}" || return 1
	mx_nav_pid=$mx_pid
	mx_reach "$mx_log" 0.23 0.27 10
}
check "mux: Nav2 alone (cmd_vel_nav $mx_nav_v m/s) drives the robot at its speed" mx_nav

mx_teleop() {
	mx_pub mx_teleop /cmd_vel_teleop geometry_msgs/msg/Twist "{linear: {x: $mx_teleop_v}}" || return 1
	mx_teleop_pid=$mx_pid
	mx_reach "$mx_log" 0.38 0.42 10
}
check "mux: teleop (cmd_vel_teleop $mx_teleop_v m/s) overrides Nav2: the robot follows teleop" mx_teleop

mx_resume() {
	mx_kill "$mx_teleop_pid"
	mx_reach "$mx_log" 0.23 0.27 10
}
check "mux: Nav2 resumes once teleop is silent for its timeout (0.5 s)" mx_resume

mx_lock() {
	mx_pub mx_teleop /cmd_vel_teleop geometry_msgs/msg/Twist "{linear: {x: $mx_teleop_v}}" || return 1
	mx_teleop_pid=$mx_pid
	mx_reach "$mx_log" 0.38 0.42 10 || return 1
	ros2 topic pub --once -w 1 /e_stop std_msgs/msg/Bool "{data: true}" >/dev/null || return 1
	# Muted sources: the driver's command timeout (0.5 s) stops it.
	mx_reach "$mx_log" -0.001 0.001 10 || return 1
	# Held (timeout 0): both publishers still run, the robot stays.
	sleep 2
	mx_settled "$mx_log" -0.001 0.001
}
check "mux: the lock e_stop stops the robot against teleop and Nav2, and holds" mx_lock

mx_unlock() {
	ros2 topic pub --once -w 1 /e_stop std_msgs/msg/Bool "{data: false}" >/dev/null || return 1
	mx_reach "$mx_log" 0.38 0.42 10
}
check "mux: releasing the lock gives the robot back to teleop" mx_unlock
mx_kill "$mx_teleop_pid"
mx_kill "$mx_nav_pid"

mx_console() {
	local l
	l=$(timeout 10 ros2 topic echo --once /e_stop std_msgs/msg/Bool 2>/dev/null) || return 1
	echo "console's lock: $l"
	grep -q '^data: false' <<<"$l" || return 1
	# Captured first: grep -q ends the pipe early, and ros2 fails on it.
	local teleop joy
	teleop=$(ros2 topic info /cmd_vel_teleop) && joy=$(ros2 topic info /joy) || return 1
	grep -q 'Publisher count: 1' <<<"$teleop" && grep -q 'Publisher count: 1' <<<"$joy"
}
launch mux_console console.launch.py twist_mux:=true "listen:=127.0.0.1:$((tb_port + 7))"
check "mux: the console with twist_mux:=true publishes cmd_vel_teleop, Joy on /joy and the lock e_stop (false)" within 30 mx_console
stop_launch
stop_launch

# The driver with cmd_vel_stamped: true (a copy of its parameters file).
mx_params="$logs/servosila_stamped.yaml"
sed 's/^\( *cmd_vel_stamped:\).*/\1 true/' "$install/telebridge/share/telebridge/params/servosila_driver.yaml" >"$mx_params"
launch mux_stamped servosila.launch.py sim:=true "sim_port:=$mx_port" "params_file:=$mx_params"
mxs_log="$logs/mux_stamped.log"
mx_stamped_type() {
	local l
	l=$(ros2 topic info /cmd_vel 2>&1) && grep -q "Type: geometry_msgs/msg/TwistStamped" <<<"$l"
}
check "mux: servosila_driver with cmd_vel_stamped subscribes geometry_msgs/TwistStamped" within 30 mx_stamped_type
within 15 grep -aq 'link true' "$mxs_log" || true

mx_stamped() {
	local rc=0
	mx_pub mx_stamped_now /cmd_vel geometry_msgs/msg/TwistStamped "{header: {stamp: now}, twist: {linear: {x: 0.3}}}" || return 1
	mx_reach "$mxs_log" 0.28 0.32 10 || rc=1
	mx_kill "$mx_pid"
	[ $rc -eq 0 ] || return 1
	mx_reach "$mxs_log" -0.001 0.001 10 || return 1
	# Stamped 2001-09-09: stale by its stamp, refused, the robot stays.
	mx_pub mx_stamped_old /cmd_vel geometry_msgs/msg/TwistStamped "{header: {stamp: {sec: 1000000000}}, twist: {linear: {x: 0.3}}}" || return 1
	sleep 3
	mx_settled "$mxs_log" -0.001 0.001 || rc=1
	mx_kill "$mx_pid"
	[ $rc -eq 0 ] && grep -aq 'cmd_vel refused.*stale' "$mxs_log"
}
check "mux: a TwistStamped stamped now drives the robot; one stamped long ago is refused (stale)" mx_stamped
stop_launch

# furbot_twist_control with cmd_vel_stamped: true, against the simulated
# vehicle on 127.0.0.1:tb_port+8 (the bridge on +9).
mxf_params="$logs/furbot_twist_control_stamped.yaml"
sed 's/^\( *cmd_vel_stamped:\).*/\1 true/' "$install/telebridge/share/telebridge/params/furbot_twist_control.yaml" >"$mxf_params"
launch mux_furbot furbot.launch.py sim:=true "sim_vehicle_port:=$((tb_port + 8))" "sim_bridge_port:=$((tb_port + 9))" \
	"furbot_twist_control_params:=$mxf_params"
mxf_log="$logs/mux_furbot.log"
check "mux: furbot_twist_control with cmd_vel_stamped subscribes geometry_msgs/TwistStamped" within 30 mx_stamped_type
# mxf_speed: the mean of the simulated vehicle's last 5 speeds (1 s).
mxf_speed() {
	grep -a 'control frames' "$mxf_log" | tail -n 5 | sed -n 's/.* v *\([-+0-9.]*\) .*/\1/p' |
		awk '{ s += $1; n++ } END { if (n == 5) printf "%.3f\n", s / n }'
}
mxf_near() {
	local v
	v=$(mxf_speed)
	echo "simulated vehicle speed (mean of 1 s): ${v:-none} m/s"
	[ -n "$v" ] && between "$v" "$1" "$2"
}
mxf_stamped() {
	local rc=0
	mx_pub mxf_now /cmd_vel geometry_msgs/msg/TwistStamped "{header: {stamp: now}, twist: {linear: {x: 1.0}}}" || return 1
	within 20 mxf_near 0.95 1.05 || rc=1
	mx_kill "$mx_pid"
	[ $rc -eq 0 ] || { mxf_near 0.95 1.05; return 1; }
	within 20 mxf_near -0.01 0.01 || return 1
	mx_pub mxf_old /cmd_vel geometry_msgs/msg/TwistStamped "{header: {stamp: {sec: 1000000000}}, twist: {linear: {x: 1.0}}}" || return 1
	sleep 3
	mxf_near -0.01 0.01 || rc=1
	mx_kill "$mx_pid"
	[ $rc -eq 0 ] && grep -aq 'cmd_vel refused.*stale' "$mxf_log"
}
check "mux: the Furbot follows a TwistStamped stamped now and refuses one stamped long ago (stale)" mxf_stamped
stop_launch
# The simulators' speeds each passing check settled on.
[ -f "$logs/mux.notes" ] && sed 's/^/ros2-test: mux: /' "$logs/mux.notes" || true
