# Jog stack (sourced by ros2-test.sh): jog_server driving the simulated arm,
# launched with `ros2 launch telebridge jog.launch.py sim:=true` (the
# ur5_like arm, starting at 0.2 -1.4 1.6 -1.8 -1.57 0.3 rad). arm_sim's
# joint_states are the simulation's truth: every motion check reads them,
# recorded with their header stamps (arm_sim's wall clock, the clock `date`
# reads here).

launch jog jog.launch.py sim:=true

# jg_started FILE: waits (at most 15 s) until a background js_record has
# its first message, so that what follows is recorded.
jg_started() {
	for _ in $(seq 150); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	echo "no joint_states recorded in $1 within 15 s" >&2
	return 1
}
# jg_now: the wall clock [s].
jg_now() { date +%s.%N; }
# jg_motion FILE T: when the positions last changed (by more than 1e-9 rad
# from one message to the next) relative to T [s], how much they moved in
# the 0.3 s before T, and how many messages came; "none" without changes.
jg_motion() {
	awk -F, -v t="$2" '
		function jn(  i) { for (i = 4; i <= NF && $i !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/; i++) ; return i - 4 } NF > 3 {
			n = jn(); ts = $1 + $2 / 1e9; moved = 0
			for (i = 4 + n; i < 4 + 2 * n; i++) {
				if (seen && ($i - prev[i] > 1e-9 || prev[i] - $i > 1e-9)) moved = 1
				if (seen && ts > t - 0.3 && ts <= t) { d = $i - prev[i]; before += d < 0 ? -d : d }
				prev[i] = $i
			}
			if (moved) last = ts
			seen = 1; count++
		}
		END { if (last == "") print "none", before + 0, count + 0; else printf "%.3f %.4f %d\n", last - t, before, count }' "$1"
}
jg_le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
# (grep without -q: with pipefail, an early exit of grep would fail tee.)
jg_stop() {
	ros2 service call /remotecontrol_stop_move std_srvs/srv/Trigger | tee -a "$logs/jog-calls.log" | grep 'success=True' >/dev/null
}

check "jog: jog_server and arm_sim come up" \
	within 30 bash -c 'ros2 node list 2>/dev/null | grep -qx /jog_server && ros2 node list 2>/dev/null | grep -qx /arm_sim'
check "jog: the jog services are offered" \
	within 15 bash -c 'ros2 service list | grep -qx /remotecontrol_start_move_joints && ros2 service list | grep -qx /remotecontrol_start_move_cartesian &&
		ros2 service list | grep -qx /remotecontrol_stop_move && ros2 service list | grep -qx /dnb_remote_robot_control/heartbeat &&
		ros2 service list | grep -qx /dnb_remote_robot_control/set_heartbeat_timeout'
check "jog: ros2 param list shows the drag&bot table" \
	bash -c 'ros2 param list /jog_server | grep -q step_translation_factor && ros2 param list /jog_server | grep -q robot_data.flange_frame'
check "jog: ros2 param get reads the launch's value and a default" \
	bash -c 'ros2 param get /jog_server robot_data.flange_frame | grep -q "String value is: tool0" &&
		ros2 param get /jog_server heartbeat_timeout | grep -q "Double value is: 0.2"'
check "jog: ros2 param set changes a live parameter (step_joints)" \
	bash -c 'ros2 param set /jog_server step_joints 0.25 | grep -q "Set parameter successful" &&
		ros2 param get /jog_server step_joints | grep -q "Double value is: 0.25"'
check "jog: ros2 param set refuses a read-only one (update_rate)" \
	bash -c 'ros2 param set /jog_server update_rate 50.0 2>&1 | grep -q "read-only"'
check "jog: ros2 param set refuses REL (relative commands) for the JointTrajectory output" \
	bash -c 'out=$(ros2 param set /jog_server cartesian_delta_command_type REL 2>&1); echo "$out"; grep -q "relative Cartesian commands" <<<"$out" &&
		ros2 param get /jog_server cartesian_delta_command_type | grep -q "String value is: PTP"'
jg_set_timeout() {
	ros2 service call /dnb_remote_robot_control/set_heartbeat_timeout telebridge_interfaces/srv/SetFloat "{data: $1}" | grep -q 'success=True' &&
		ros2 param get /jog_server heartbeat_timeout | grep -q "Double value is: $1"
}
check "jog: set_heartbeat_timeout changes heartbeat_timeout live (0.5 s, then back to 0.2 s)" \
	bash -c "$(declare -f jg_set_timeout); jg_set_timeout 0.5 && jg_set_timeout 0.2"
check "jog: a malformed request (5 values for 6 joints) is refused" \
	bash -c 'ros2 service call /remotecontrol_start_move_joints telebridge_interfaces/srv/StartJointMove "{move_delta: true, joint_values: [1,0,0,0,0], speed: 1.0}" | grep -q "success=False"'
check "jog: arm_sim publishes joint_states" \
	bash -c 'timeout 10 ros2 topic echo --once /joint_states sensor_msgs/msg/JointState | grep -q shoulder_pan_joint'

# An incremental joint move kept alive by heartbeats on the topic moves
# the arm at joints_delta_velocity (5 % of 3.15 rad/s: 0.1575 rad/s).
jg_incremental() {
	local rec="$logs/jog-incremental.csv" before after
	js_record 1.5 "$rec"
	before=$(js_last "$rec")
	beats_start
	joint_move true "1,0,0,0,0,0" || { beats_stop; return 1; }
	sleep 2
	js_record 1.5 "$rec"
	after=$(js_last "$rec")
	echo "joints before: $before"
	echo "joints after about 3 s of heartbeats: $after" | tee -a "$logs/jog-figures.txt"
	# joint 1 advanced, the others did not move
	gt "$(echo "$after" | cut -d' ' -f1)" "$(awk -v b="$(echo "$before" | cut -d' ' -f1)" 'BEGIN { print b + 0.2 }')" &&
		near "$(echo "$before" | cut -d' ' -f2-)" "$(echo "$after" | cut -d' ' -f2-)" 1e-6
}
check "jog: heartbeats on /heartbeat and an incremental joint move move arm_sim's joint_states" jg_incremental

# The heartbeats stop while the arm moves: the stop must begin within
# heartbeat_timeout (0.2 s) plus one cycle (0.05 s) of the last heartbeat,
# which left at most 0.05 s before the publisher was stopped. The stop
# decelerates from 0.1575 rad/s at 2 rad/s² (default_joint_acceleration):
# 0.08 s more, plus arm_sim's 20 ms tick: the bound from the stop of the
# heartbeats is 0.4 s.
jg_lapse() {
	local rec="$logs/jog-lapse.csv" t m
	js_record 4 "$rec" &
	local recorder=$!
	jg_started "$rec"
	sleep 2
	t=$(jg_now)
	beats_stop
	wait "$recorder"
	m=$(jg_motion "$rec" "$t")
	echo "last change of the joints $(echo "$m" | cut -d' ' -f1) s after the heartbeats stopped; moved $(echo "$m" | cut -d' ' -f2) rad in the 0.3 s before; $(echo "$m" | cut -d' ' -f3) messages" | tee -a "$logs/jog-figures.txt"
	set -- $m
	[ "$1" != none ] && gt "$2" 0.01 && jg_le "$1" 0.4
}
check "jog: without heartbeats the motion stops within the timeout plus one cycle" jg_lapse

jg_quiet() {
	local rec="$logs/jog-quiet.csv" m
	js_record 1.5 "$rec"
	m=$(jg_motion "$rec" 0)
	echo "after the lapse: $m"
	[ "$(echo "$m" | cut -d' ' -f1)" = none ]
}
check "jog: after the lapse the arm stays still (no stale motion)" jg_quiet

# The heartbeat service keeps a motion alive as the topic does.
jg_service_beats() {
	local rec="$logs/jog-service.csv" before after
	ros2 service call -r 20 /dnb_remote_robot_control/heartbeat std_srvs/srv/Trigger >"$logs/jog-heartbeat-service.log" 2>&1 &
	local beats=$!
	sleep 2
	js_record 1.5 "$rec"
	before=$(js_last "$rec")
	joint_move true "0,0,0,0,0,-1" || { kill -TERM "$beats"; return 1; }
	sleep 2
	js_record 1.5 "$rec"
	after=$(js_last "$rec")
	kill -TERM "$beats" 2>/dev/null
	wait "$beats" 2>/dev/null
	echo "wrist_3 $(echo "$before" | cut -d' ' -f6) -> $(echo "$after" | cut -d' ' -f6) rad with heartbeats from the service" | tee -a "$logs/jog-figures.txt"
	grep -q 'success=True' "$logs/jog-heartbeat-service.log" &&
		gt "$(echo "$before" | cut -d' ' -f6)" "$(awk -v a="$(echo "$after" | cut -d' ' -f6)" 'BEGIN { print a + 0.2 }')"
}
check "jog: heartbeats from the heartbeat service keep an incremental move going" jg_service_beats

# The stop service ends a motion at once, although heartbeats go on. The
# time is taken from jog_server's log line of the stop (its wall clock
# stamp), since `ros2 service call` itself takes a second to start and
# exit: the rest point of the deceleration (0.08 s from 0.1575 rad/s at
# 2 rad/s²) goes out while the call is served, and arm_sim is at rest
# there after that and its own 20 ms tick; bound 0.15 s.
jg_stop_now() {
	local rec="$logs/jog-stop.csv" t m
	beats_start
	joint_move true "0,0,-1,0,0,0" || { beats_stop; return 1; }
	js_record 5 "$rec" &
	local recorder=$!
	jg_started "$rec"
	sleep 2.5
	jg_stop || { beats_stop; return 1; }
	wait "$recorder"
	beats_stop
	t=$(grep -a 'remotecontrol_stop_move: stopped' "$logs/jog.log" | tail -n 1 | sed -n 's/.*\] \[\([0-9]*\.[0-9]*\)\] \[jog_server\].*/\1/p')
	[ -n "$t" ] || { echo "no stop in the jog_server log"; return 1; }
	m=$(jg_motion "$rec" "$t")
	echo "last change of the joints $(echo "$m" | cut -d' ' -f1) s after jog_server served the stop; moved $(echo "$m" | cut -d' ' -f2) rad in the 0.3 s before; heartbeats still running" | tee -a "$logs/jog-figures.txt"
	set -- $m
	[ "$1" != none ] && gt "$2" 0.01 && jg_le "$1" 0.15
}
check "jog: the stop service stops the arm immediately" jg_stop_now

# An absolute joint goal is reached within 1e-3 rad (the server's
# tolerance) plus 1e-3 for arm_sim's last step.
jg_goal() {
	local goal="0.5 -1.3 1.45 -1.7 -1.5 0.4" rec="$logs/jog-goal.csv" got
	beats_start
	joint_move false "$(echo "$goal" | tr ' ' ,)" || { beats_stop; return 1; }
	local end=$((SECONDS + 20))
	while [ $SECONDS -lt $end ]; do
		js_record 1.5 "$rec"
		got=$(js_last "$rec")
		near "$got" "$goal" 2e-3 && break
	done
	beats_stop
	echo "goal:   $goal"
	echo "joints: $got" | tee -a "$logs/jog-figures.txt"
	near "$got" "$goal" 2e-3
}
check "jog: an absolute joint goal is reached within tolerance" jg_goal

# jg_dynamics FILE: the largest joint speed and acceleration in the
# recording [rad/s, rad/s²], from finite differences over 0.1 s windows of
# the header stamps (arm_sim publishes every 20 ms; the windows smooth the
# jitter of the stamps).
jg_dynamics() {
	awk -F, '
		function jn(  i) { for (i = 4; i <= NF && $i !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/; i++) ; return i - 4 } NF > 3 { n = jn(); k++; t[k] = $1 + $2 / 1e9; for (i = 0; i < n; i++) p[k, i] = $(4 + n + i) }
		END {
			vmax = 0; amax = 0
			for (a = 1; a <= k; a++) {
				b = a; while (b <= k && t[b] < t[a] + 0.1) b++
				c = b; while (c <= k && t[c] < t[b] + 0.1) c++
				if (c > k) break
				for (i = 0; i < n; i++) {
					v1 = (p[b, i] - p[a, i]) / (t[b] - t[a]); v2 = (p[c, i] - p[b, i]) / (t[c] - t[b])
					acc = (v2 - v1) / ((t[c] - t[a]) / 2)
					if (v1 < 0) v1 = -v1; if (acc < 0) acc = -acc
					if (v1 > vmax) vmax = v1; if (acc > amax) amax = acc
				}
			}
			printf "%.4f %.4f\n", vmax, amax
		}' "$1"
}

# An absolute joint goal at 40 % of the velocity limits (1.26 rad/s): the
# joints accelerate and brake at default_joint_acceleration (2 rad/s²),
# checked on arm_sim's joint_states. Each target carries the next cycle's
# point and the cycle's stamp (stamp_trajectories, set by the launch with
# sim:=true), so a target that arrives late within a cycle changes nothing
# in arm_sim's truth, and the finite differences over its own stamps are
# second divided differences of a motion whose acceleration never exceeds
# the limit: bound 2 rad/s² plus 2 % for rounding. A target more than a
# cycle late (jog_server stalled for a whole period) stops the arm at its
# last point; arm_sim then logs "late target", printed here on failure.
# The largest must also come near the limit (> 1.5), or the profile was
# not exercised.
jg_accel() {
	local rec="$logs/jog-accel.csv" m goal="0.2 -1.4 1.6 -1.8 -1.57 0.3"
	ros2 param set /jog_server joints_goal_velocity 40.0 | grep -q "Set parameter successful" || return 1
	beats_start
	# jog_server's targets as well (started first: they flow only in
	# motion): CSV of stamp, frame, names, then per point positions,
	# velocities, (no accelerations, efforts), time_from_start.
	PYTHONUNBUFFERED=1 timeout -s INT 30 ros2 topic echo --csv /joint_trajectory_controller/joint_trajectory \
		trajectory_msgs/msg/JointTrajectory >"$logs/jog-trajectory.csv" 2>"$logs/jog-trajectory.err" &
	local targets=$!
	js_record 6 "$rec" &
	local recorder=$!
	jg_started "$rec"
	sleep 1
	joint_move false "$(echo "$goal" | tr ' ' ,)" || { beats_stop; wait "$recorder"; kill -INT "$targets"; return 1; }
	wait "$recorder"
	kill -INT "$targets" 2>/dev/null || true
	wait "$targets" 2>/dev/null || true
	beats_stop
	ros2 param set /jog_server joints_goal_velocity 5.0 >/dev/null
	m=$(jg_dynamics "$rec")
	echo "joint goal at 40 %: top speed $(echo "$m" | cut -d' ' -f1) rad/s, top acceleration $(echo "$m" | cut -d' ' -f2) rad/s² (limit 2)" | tee -a "$logs/jog-figures.txt"
	# Targets in motion: stamped (sec > 0), two points: after the stamp,
	# frame and 6 names, 6 positions, 6 velocities and time_from_start
	# (2) a point, and maybe an empty field each for the empty
	# accelerations and efforts: 14 to 16 fields a point.
	local two
	two=$(awk -F, 'NF - 9 >= 28 && $1 > 0 { n++ } END { print n + 0 }' "$logs/jog-trajectory.csv")
	echo "targets recorded: $(wc -l <"$logs/jog-trajectory.csv"), stamped with two points: $two" | tee -a "$logs/jog-figures.txt"
	set -- $m
	# The stamps must be on arm_sim's clock, or they are ignored.
	local off
	off=$(grep -ac "stamp off the arm's clock" "$logs/jog.log" || true)
	if jg_le "$1" 1.3 && jg_le "$2" 2.04 && gt "$2" 1.5 && near "$(js_last "$rec")" "$goal" 2e-3 && gt "$two" 5 && [ "$off" -eq 0 ]; then
		return 0
	fi
	echo "arm_sim's late targets: $(grep -ac 'late target' "$logs/jog.log" || true); stamps off its clock: $off"
	grep -a -e 'late target' -e "stamp off the arm's clock" "$logs/jog.log" | tail -n 3
	return 1
}
check "jog: a joint goal accelerates within the acceleration limit (finite differences of joint_states; targets stamped, two points)" jg_accel

# Cartesian checks need the tool pose of arm_sim's joints: forward
# kinematics by `telebridge kin fk` on the same URDF (base_link -> tool0).
jg_urdf=$(ros2 pkg prefix telebridge)/share/telebridge/launch/urdf/ur5_like.urdf
jg_fk() {
	"$logs/telebridge" kin fk --urdf "$jg_urdf" --base base_link --tip tool0 --joints "$(echo "$1" | tr ' ' ,)" |
		/usr/bin/python3 -c 'import json, sys; p = json.load(sys.stdin); print(" ".join(repr(v) for v in p["xyz"] + p["rzyx"]))'
}
# jg_settled FILE: the last positions once two recordings agree within 1e-6.
jg_wait_still() {
	local rec=$1 prev="" got end=$((SECONDS + 30))
	while [ $SECONDS -lt $end ]; do
		js_record 1.5 "$rec"
		got=$(js_last "$rec")
		[ -n "$prev" ] && near "$got" "$prev" 1e-6 && break
		prev=$got
	done
	echo "$got"
}
# jg_reach GOAL FILE: the tool pose once within 3 mm of GOAL's position
# (or after 25 s).
jg_reach() {
	local got end=$((SECONDS + 25))
	while [ $SECONDS -lt $end ]; do
		js_record 1.5 "$2"
		got=$(jg_fk "$(js_last "$2")")
		near "$(echo "$got" | cut -d' ' -f1-3)" "$(echo "$1" | cut -d' ' -f1-3)" 3e-3 && { echo "$got"; return 0; }
	done
	echo "$got"
	echo "jg_reach: not reached; jog_server: $(grep -a 'motion ended' "$logs/jog.log" | tail -n 2 | tr '\n' ' ')" >&2
}
check "jog: telebridge builds (forward kinematics for the Cartesian checks)" \
	bash -c "cd '$repo' && go build -o '$logs/telebridge' ./cmd/telebridge"

# An absolute Cartesian goal (pose_reference empty: the world frame, which
# nobody publishes on tf, so it is the base) 5 cm / 3 cm / -4 cm away from
# the tool, same orientation, is reached: the FK of the final joints is
# within 3 mm and 0.005 rad of it.
jg_cartesian_goal() {
	local rec="$logs/jog-cartesian.csv" q pose goal got
	q=$(jg_wait_still "$rec")
	pose=$(jg_fk "$q") || return 1
	goal=$(echo "$pose" | awk '{ printf "%.6f %.6f %.6f %.6f %.6f %.6f", $1 + 0.05, $2 + 0.03, $3 - 0.04, $4, $5, $6 }')
	set -- $goal
	beats_start
	ros2 service call /remotecontrol_start_move_cartesian telebridge_interfaces/srv/StartCartesianMove \
		"{pose_reference: '', move_delta: false, pose: {x: $1, y: $2, z: $3, rz: $4, ry: $5, rx: $6}, speed: 1.0}" |
		tee -a "$logs/jog-calls.log" | grep 'success=True' >/dev/null || { beats_stop; return 1; }
	got=$(jg_reach "$goal" "$rec")
	beats_stop
	echo "tool before: $pose" | tee -a "$logs/jog-figures.txt"
	echo "goal:        $goal" | tee -a "$logs/jog-figures.txt"
	echo "tool after:  $got" | tee -a "$logs/jog-figures.txt"
	near "$(echo "$got" | cut -d' ' -f1-3)" "$(echo "$goal" | cut -d' ' -f1-3)" 3e-3 &&
		near "$(echo "$got" | cut -d' ' -f4-6)" "$(echo "$goal" | cut -d' ' -f4-6)" 5e-3
}
check "jog: an absolute Cartesian goal is reached within 3 mm (FK of arm_sim's joints)" jg_cartesian_goal

# An incremental Cartesian move up (+z in the world frame, which turns the
# tool about its own point) raises the tool and keeps x, y within 5 mm.
jg_cartesian_up() {
	local rec="$logs/jog-up.csv" before after
	before=$(jg_fk "$(jg_wait_still "$rec")")
	beats_start
	ros2 service call /remotecontrol_start_move_cartesian telebridge_interfaces/srv/StartCartesianMove \
		"{pose_reference: '', move_delta: true, pose: {z: 1.0}, speed: 1.0}" |
		tee -a "$logs/jog-calls.log" | grep 'success=True' >/dev/null || { beats_stop; return 1; }
	sleep 3
	beats_stop
	after=$(jg_fk "$(jg_wait_still "$rec")")
	echo "tool before the move up: $before" | tee -a "$logs/jog-figures.txt"
	echo "tool after the move up:  $after" | tee -a "$logs/jog-figures.txt"
	gt "$(echo "$after" | cut -d' ' -f3)" "$(awk -v z="$(echo "$before" | cut -d' ' -f3)" 'BEGIN { print z + 0.02 }')" &&
		near "$(echo "$after" | cut -d' ' -f1-2)" "$(echo "$before" | cut -d' ' -f1-2)" 5e-3
}
check "jog: an incremental Cartesian move up raises the tool (x, y kept within 5 mm)" jg_cartesian_up

# A goal in a tf frame: frame A is published on /tf_static (base_link ->
# A = (0.1, 0, 0.05), as a static broadcaster would), and the request adds
# the extra reference frame (-0.05, 0, 0.02) on A: the drag&bot rule puts
# the goal at T_base_A * extra * pose. The pose is chosen so that the tool
# goes 3 cm back, 2 cm left and 3 cm up; FK of the result within 3 mm.
jg_tf_goal() {
	local rec="$logs/jog-tf.csv" pose goal req got
	ros2 topic pub --qos-durability transient_local --qos-reliability reliable -r 1 /tf_static tf2_msgs/msg/TFMessage \
		"{transforms: [{header: {frame_id: base_link}, child_frame_id: A, transform: {translation: {x: 0.1, y: 0.0, z: 0.05}, rotation: {w: 1.0}}}]}" >/dev/null 2>&1 &
	local tfpub=$!
	pose=$(jg_fk "$(jg_wait_still "$rec")")
	goal=$(echo "$pose" | awk '{ printf "%.6f %.6f %.6f %.6f %.6f %.6f", $1 - 0.03, $2 + 0.02, $3 + 0.03, $4, $5, $6 }')
	req=$(echo "$goal" | awk '{ printf "%.6f %.6f %.6f %.6f %.6f %.6f", $1 - 0.1 + 0.05, $2, $3 - 0.05 - 0.02, $4, $5, $6 }')
	set -- $req
	beats_start
	ros2 service call /remotecontrol_start_move_cartesian telebridge_interfaces/srv/StartCartesianMove \
		"{pose_reference: A, move_delta: false, pose: {x: $1, y: $2, z: $3, rz: $4, ry: $5, rx: $6}, use_reference_frame: true, reference_frame: {x: -0.05, z: 0.02}, speed: 1.0}" |
		tee -a "$logs/jog-calls.log" | grep 'success=True' >/dev/null || { beats_stop; kill -TERM "$tfpub"; return 1; }
	got=$(jg_reach "$goal" "$rec")
	beats_stop
	kill -TERM "$tfpub" 2>/dev/null
	wait "$tfpub" 2>/dev/null
	echo "goal in A + extra frame: request $req -> expected tool $goal; tool at $got" | tee -a "$logs/jog-figures.txt"
	near "$(echo "$got" | cut -d' ' -f1-3)" "$(echo "$goal" | cut -d' ' -f1-3)" 3e-3
}
check "jog: a Cartesian goal in a /tf_static frame plus an extra reference frame is reached" jg_tf_goal

# A LIN goal: with cartesian_goal_command_type_translational_movement set
# to LIN, an absolute Cartesian goal 8 cm along -x and 4 cm up moves the
# tool along the straight line at 0.1 m/s: every recorded joint state
# (FK by telebridge kin fk) within 1 mm of the line, the goal reached
# within 3 mm.
jg_lin() {
	local rec="$logs/jog-lin.csv" pose goal got dev
	ros2 param set /jog_server cartesian_goal_command_type_translational_movement LIN | grep -q "Set parameter successful" || return 1
	pose=$(jg_fk "$(jg_wait_still "$rec")") || return 1
	goal=$(echo "$pose" | awk '{ printf "%.6f %.6f %.6f %.6f %.6f %.6f", $1 - 0.08, $2, $3 + 0.04, $4, $5, $6 }')
	set -- $goal
	beats_start
	js_record_motion "$rec"
	ros2 service call /remotecontrol_start_move_cartesian telebridge_interfaces/srv/StartCartesianMove \
		"{pose_reference: '', move_delta: false, pose: {x: $1, y: $2, z: $3, rz: $4, ry: $5, rx: $6}, speed: 1.0}" |
		tee -a "$logs/jog-calls.log" | grep 'success=True' >/dev/null || { beats_stop; js_motion_wait "$rec"; return 1; }
	js_motion_wait "$rec"
	beats_stop
	ros2 param set /jog_server cartesian_goal_command_type_translational_movement PTP >/dev/null
	got=$(jg_fk "$(js_last "$rec")")
	dev=$(awk -F, 'function jn(  i) { for (i = 4; i <= NF && $i !~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/; i++) ; return i - 4 } NF > 3 { n = jn(); s = ""; for (i = 4 + n; i < 4 + 2 * n; i++) s = s (s == "" ? "" : ",") $i; print s }' "$rec" |
		while read -r q; do jg_fk "$(echo "$q" | tr , ' ')"; done |
		awk -v a="$pose" -v b="$goal" 'BEGIN { split(a, p, " "); split(b, g, " "); for (i = 1; i <= 3; i++) { d[i] = g[i] - p[i]; dd += d[i] * d[i] } }
			{ f = 0; for (i = 1; i <= 3; i++) f += ($i - p[i]) * d[i]; f /= dd; if (f < 0) f = 0; if (f > 1) f = 1
			  e = 0; for (i = 1; i <= 3; i++) { x = $i - p[i] - f * d[i]; e += x * x } e = sqrt(e); if (e > m) m = e }
			END { printf "%.6f\n", m }')
	echo "LIN goal: tool from $pose to $got (goal $goal); largest distance from the line $dev m" | tee -a "$logs/jog-figures.txt"
	near "$(echo "$got" | cut -d' ' -f1-3)" "$(echo "$goal" | cut -d' ' -f1-3)" 3e-3 && jg_le "$dev" 0.001
}
check "jog: a LIN goal moves the tool along the straight line (FK of arm_sim's joints within 1 mm)" jg_lin

# SIGTERM to jog_server during a motion: the node sends the rest point of
# the deceleration (0.08 s) before it exits, so the arm stops at once
# instead of running on to the last point sent.
jg_sigterm() {
	local rec="$logs/jog-sigterm.csv" pid t m
	pid=$(sed -n 's/.*\[jog_server-1\]: process started with pid \[\([0-9]*\)\].*/\1/p' "$logs/jog.log" | head -n 1)
	[ -n "$pid" ] || { echo "no jog_server pid in the launch log"; return 1; }
	beats_start
	joint_move true "-1,0,0,0,0,0" || { beats_stop; return 1; }
	js_record 4 "$rec" &
	local recorder=$!
	jg_started "$rec"
	sleep 2.5
	t=$(jg_now)
	kill -TERM "$pid"
	wait "$recorder"
	beats_stop
	m=$(jg_motion "$rec" "$t")
	echo "SIGTERM to jog_server: last change of the joints $(echo "$m" | cut -d' ' -f1) s after it; moved $(echo "$m" | cut -d' ' -f2) rad in the 0.3 s before" | tee -a "$logs/jog-figures.txt"
	set -- $m
	grep -aq 'arm told to hold' "$logs/jog.log" && [ "$1" != none ] && gt "$2" 0.01 && jg_le "$1" 0.15
}
check "jog: SIGTERM to jog_server during a motion holds the arm before the node exits" jg_sigterm

stop_launch
# The measured figures, also for passing checks.
[ -f "$logs/jog-figures.txt" ] && sed 's/^/ros2-test: jog: /' "$logs/jog-figures.txt"

# Two arms in one graph: jog.launch.py namespace:=arm1 and arm2 (each with
# its arm_sim and robot_state_publisher, frame prefixes arm1/ and arm2/).
# Each jog_server answers under its own namespace; a move asked of arm2
# moves arm2's simulated joints and not arm1's.
launch jog_arm1 jog.launch.py sim:=true namespace:=arm1 frame_prefix:=arm1/
launch jog_arm2 jog.launch.py sim:=true namespace:=arm2 frame_prefix:=arm2/
jg_two_up() {
	local l
	l=$(ros2 service list 2>&1) || return 1
	grep -qx /arm1/remotecontrol_start_move_joints <<<"$l" && grep -qx /arm2/remotecontrol_start_move_joints <<<"$l" &&
		grep -qx /arm2/dnb_remote_robot_control/heartbeat <<<"$l" && ! grep -qx /remotecontrol_start_move_joints <<<"$l"
}
check "jog: two arms under /arm1 and /arm2 offer their jog services there (and not the drag&bot names)" within 60 jg_two_up
# jg_ns_positions NS: the next joint positions of NS's arm_sim.
jg_ns_positions() {
	timeout 10 ros2 topic echo --once "/$1/joint_states" sensor_msgs/msg/JointState --field position 2>/dev/null | head -n 1 | tr -d '[],'
}
jg_two_move() {
	local a1 a2 b1 b2 reply
	a1=$(jg_ns_positions arm1) a2=$(jg_ns_positions arm2)
	[ -n "$a1" ] && [ -n "$a2" ] || { echo "no joint_states under /arm1 or /arm2"; return 1; }
	pub_start arm2_beats -r 20 /arm2/heartbeat std_msgs/msg/Bool "{data: true}" || return 1
	sleep 1
	reply=$(ros2 service call /arm2/remotecontrol_start_move_joints telebridge_interfaces/srv/StartJointMove \
		"{move_delta: true, joint_values: [0, 0, 0, 0, 0, 1], speed: 1.0}" 2>&1)
	sleep 1.5
	pub_stop
	sleep 0.5
	b1=$(jg_ns_positions arm1) b2=$(jg_ns_positions arm2)
	echo "arm2 asked to move its last joint: $(grep -o 'success=[A-Za-z]*' <<<"$reply"); arm1 ${a1} -> ${b1}; arm2 ${a2} -> ${b2}" | tee -a "$logs/jog-figures.txt"
	grep -q 'success=True' <<<"$reply" && near "$a1" "$b1" 1e-6 && ! near "$a2" "$b2" 0.02
}
check "jog: a joint move asked of /arm2 moves arm2's simulated joints and leaves arm1's" jg_two_move
check "jog: robot_state_publisher of each arm publishes its prefixed frames" \
	within 20 bash -c 'out=$(timeout 10 ros2 topic echo /tf tf2_msgs/msg/TFMessage 2>&1 | head -n 400); grep -q "frame_id: arm1/" <<<"$out" && grep -q "frame_id: arm2/" <<<"$out"'
stop_launch
stop_launch
