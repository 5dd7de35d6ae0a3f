# Servosila command loss (issue 19 item 8; sourced by ros2-test.sh):
# servosila_driver against servosila-sim at the robot's 1 Hz telemetry,
# through `telebridge impair`, which goes dark both ways for 2 s while
# cmd_vel drives. That is shorter than what the driver calls a lost link,
# yet /diagnostics must warn that commands did not reach the robot, with
# the figure, and the odometry's pose covariance must grow. The relay
# starts first and darkens at a fixed time after its start, late enough
# for the driver to come up and see the robot's period; the checks verify
# from the relay's own counters that the blackout fell on the drive.
# Ports: ros2-test.sh's tb_port + 6 (simulator) and + 7 (relay).

cl_bin="$install/telebridge/lib/telebridge"
cl_sim_port=$((tb_port + 6)) cl_relay_port=$((tb_port + 7))
cl_blackout_at=45

# cl_cov0: the x variance of the next odom message [m²].
cl_cov0() {
	timeout 10 ros2 topic echo --once /odom nav_msgs/msg/Odometry --field pose.covariance 2>/dev/null |
		tr -d '[],' | awk 'NF { print $1; exit }'
}

# Not named telebridge: ros2 launch would take a file of the package's name
# in the working directory for a launch file.
cl_relay="$logs/cmdloss-relay"
check "cmdloss: telebridge (the relay) builds" bash -c "cd '$repo' && go build -o '$cl_relay' ./cmd/telebridge"
start cmdloss_sim "$cl_bin/servosila-sim" --listen 127.0.0.1:$cl_sim_port --telemetry-rate 1 --print 200ms
start cmdloss_relay "$cl_relay" impair --listen 127.0.0.1:$cl_relay_port --upstream 127.0.0.1:$cl_sim_port \
	--blackout-at ${cl_blackout_at}s --blackout 2s --every 1s
cl_t0=$SECONDS
launch cmdloss servosila.launch.py robot_address:=127.0.0.1:$cl_relay_port description:=false
check "cmdloss: the driver hears the robot through the relay" \
	within 40 grep -aq 'link true' "$logs/cmdloss_sim.log"
pub_start cl_drive -r 10 /cmd_vel geometry_msgs/msg/Twist "{linear: {x: 0.3}}" || true
cl_cov_before=$(cl_cov0 || true)

cl_dark() {
	local up
	up=$(grep -a '^  up ' "$logs/cmdloss_relay.log" | tail -n 1 | sed -n 's/.*blackout \([0-9]*\)).*/\1/p')
	echo "relay: ${up:-no} remote-control packets dropped in the blackout"
	[ -n "$up" ] && [ "$up" -gt 0 ]
}
# Until the blackout has passed (it begins cl_blackout_at s after the relay).
sleep $((cl_blackout_at + 2 - (SECONDS - cl_t0) > 0 ? cl_blackout_at + 2 - (SECONDS - cl_t0) : 0))
check "cmdloss: the blackout fell on the drive" within 10 cl_dark

cl_diag() {
	local out
	out=$(timeout 10 ros2 topic echo --once /diagnostics diagnostic_msgs/msg/DiagnosticArray 2>&1)
	grep -m 1 -a 'commands did not reach the robot' <<<"$out"
}
check "cmdloss: /diagnostics warns that commands did not reach the robot, with the figure" \
	within 20 cl_diag

cl_cov() {
	local after
	after=$(cl_cov0 || true)
	echo "odom x variance ${cl_cov_before:-none} -> ${after:-none} m^2"
	[ -n "$after" ] && gt "$after" "$(awk -v a="${cl_cov_before:-0}" 'BEGIN { print a + 0.01 }')"
}
check "cmdloss: the odometry's covariance grew" cl_cov
pub_stop
stop_launch # the driver
stop_launch # the relay
stop_launch # the simulator
