# Servosila arm jogged by jog_server (sourced by ros2-test.sh): the robot's
# launch file with its simulator (servosila.launch.py sim:=true), and
# jog.launch.py on the robot's own description (the chain base_link ->
# tool_frame: waist, shoulder, elbow, neck), its joint targets on
# servosila_driver's ~/joint_trajectory. The simulator prints its true
# joint angles every 50 ms into the launch log; the checks judge by them.

launch sa_robot servosila.launch.py sim:=true sim_print:=50ms "$sim_servosila"
sa_log="$logs/sa_robot.log"
sa_share="$install/telebridge/share/telebridge"
[ -d "$sa_share" ] || sa_share="$install/share/telebridge"
launch sa_jog jog.launch.py urdf:="$sa_share/urdf/servosila_engineer.urdf" fixed_frame:=base_link flange_frame:=tool_frame \
	trajectory_topic:=/servosila_driver/joint_trajectory stamp_trajectories:=true description:=false

# sa_arm: the simulator's latest waist, shoulder, elbow and neck [rad].
sa_arm() {
	grep -a 'link true' "$sa_log" | tail -n 1 |
		sed -n 's/.* waist \([-+0-9.]*\) shoulder \([-+0-9.]*\) elbow \([-+0-9.]*\) neck \([-+0-9.]*\) rad .*/\1 \2 \3 \4/p'
}

check "servosila arm: servosila_driver and jog_server come up, the simulator hears the driver" \
	within 30 bash -c 'ros2 node list 2>/dev/null | grep -qx /servosila_driver && ros2 node list 2>/dev/null | grep -qx /jog_server && grep -aq "link true" "$0"' "$sa_log"
check "servosila arm: jog_server takes the robot's description (4 joints, base_link -> tool_frame)" \
	within 15 bash -c 'ros2 param get /jog_server robot_data.flange_frame | grep -q "String value is: tool_frame"'
# 60 % of the description's 0.5 rad/s: the moves take seconds, not minutes.
check "servosila arm: joints_goal_velocity and joints_delta_velocity set to 60 %" \
	bash -c 'ros2 param set /jog_server joints_goal_velocity 60.0 | grep -q successful && ros2 param set /jog_server joints_delta_velocity 60.0 | grep -q successful'

# An absolute joint goal: the robot's true joints reach it. At 0.3 rad/s
# and 2 rad/s² the longest joint (0.4 rad) takes 0.4 / 0.3 + 0.3 / 2 =
# 1.5 s; the robot, following the profile's points with their velocities,
# is there within 2 s more (its position loop settles inside 0.01 rad).
sa_goal() {
	local goal="0.4 0.3 -0.3 0.2" t0 took arm
	beats_start
	t0=$(date +%s.%N)
	joint_move false "0.4, 0.3, -0.3, 0.2" || { beats_stop; return 1; }
	for _ in $(seq 100); do
		arm=$(sa_arm)
		near "$arm" "$goal" 0.01 && break
		sleep 0.1
	done
	took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
	beats_stop
	echo "goal: robot's true joints $arm (goal $goal) ${took} s after the call" | tee -a "$logs/sa.notes"
	near "$arm" "$goal" 0.01 && awk -v t="$took" 'BEGIN { exit !(t <= 3.5) }'
}
check "servosila arm: an absolute joint goal from jog_server moves the robot there (within 0.01 rad, 3.5 s)" sa_goal

# An incremental move on the waist kept alive by heartbeats, then the
# heartbeats stop: the robot moved while they flowed and stands within
# 1 s of their end (timeout 0.2 s, one cycle, a 0.15 s deceleration from
# 0.3 rad/s, the position loop's settling).
sa_deadman() {
	local a0 a1 a2 a3
	a0=$(sa_arm)
	beats_start
	joint_move true "1, 0, 0, 0" || { beats_stop; return 1; }
	sleep 1.5
	a1=$(sa_arm)
	beats_stop
	sleep 1
	a2=$(sa_arm)
	sleep 1
	a3=$(sa_arm)
	echo "deadman: true joints before $a0; after 1.5 s of heartbeats $a1; 1 s and 2 s after they stopped $a2; $a3" | tee -a "$logs/sa.notes"
	! near "$a0" "$a1" 0.1 && near "$a2" "$a3" 0.002
}
check "servosila arm: a jog move moves the robot while heartbeats flow and stops it when they end" sa_deadman
check "servosila arm: servosila_driver refused no trajectory" \
	bash -c '! grep -a "joint trajectory refused" "$0"' "$sa_log"
stop_launch
stop_launch
[ -f "$logs/sa.notes" ] && sed 's/^/     servosila arm figures: /' "$logs/sa.notes"
