# Nav2's FollowPath against both simulators (sourced by ros2-test.sh; issue
# 10 item 6). Where Nav2's controller is installed (e.g. an overlay named
# by TELEBRIDGE_ROS_OVERLAY, see scripts/ros2-env.sh), for each machine and
# path: launch nav2_example.launch.py with the robot's simulator printing
# its truth every 50 ms, wait for controller_server to be active, check
# that truth and odom start at the origin (paths in odom are then paths in
# the simulator's world), send the path to FollowPath while recording
# cmd_vel, and judge the drive from the simulator's truth with
# internal/tools/nav2path: the goal succeeded, the final position error
# and the largest cross-track error are within the bounds documented in
# docs/nav2.md (derived there from the configurations and the machines'
# dynamics), no driving command is slower than the machine needs, no
# TF_OLD_DATA or extrapolation warning appears while it drives, and on the
# Servosila's 4 m arc the yaw-rate command keeps its sign. Each path gets
# a fresh launch, so each starts from the same pose. Elsewhere it says
# that it skipped and why, and counts nothing as failed.

nv_missing=()
for nv_pkg in nav2_msgs nav2_controller nav2_lifecycle_manager nav2_regulated_pure_pursuit_controller; do
	if ! nv_out=$(ros2 pkg prefix "$nv_pkg" 2>&1); then
		nv_missing+=("$nv_pkg")
	fi
done
if [ ${#nv_missing[@]} -gt 0 ]; then
	echo "nav2: SKIPPED the FollowPath checks because Nav2 is not installed here: ${nv_missing[*]} not found" \
		"(ROS 2 Humble alone has no Nav2; set TELEBRIDGE_ROS_OVERLAY to a workspace that has it)"
	return 0
fi

nv_tool="$logs/nav2path"
check "nav2: the path tool builds (internal/tools/nav2path)" \
	bash -c "cd '$repo' && go build -o '$nv_tool' ./internal/tools/nav2path"
if [ ! -x "$nv_tool" ]; then
	echo "nav2: SKIPPED the FollowPath checks because the path tool did not build (FAIL above)"
	return 0
fi
# Humble's FollowPath goal names its goal checker; older ones do not. (Not
# `ros2 ... | grep -q`: under pipefail the early exit of grep -q fails the
# pipe, and the first run sent no goal checker for that reason.)
nv_checker=
nv_iface=$(ros2 interface show nav2_msgs/action/FollowPath 2>&1) || true
if grep -q goal_checker_id <<<"$nv_iface"; then
	nv_checker=general_goal_checker
fi

# nv_note LINE: prints LINE and keeps it for the figures printed at the end.
nv_note() {
	echo "$*"
	echo "$*" >>"$logs/nav2.notes"
}
# nv_get KEY FILE: a figure from nav2path eval's output.
nv_get() { sed -n "s/^$1=//p" "$2"; }

# nv_start LOG: the simulator's latest truth and the next odom message are
# both at the origin with yaw 0 (1 cm, 0.01 rad).
nv_start() {
	local truth odom
	truth=$(grep -aE '\] (link (true|false) |t +[0-9.]+ s )' "$1" | tail -n 1 |
		sed -n 's/.* x *\([-+0-9.]*\) m *y *\([-+0-9.]*\) m *yaw *\([-+0-9.]*\) rad.*/\1 \2 \3/p')
	odom=$(timeout 10 ros2 topic echo --once /odom nav_msgs/msg/Odometry --field pose.pose 2>&1 |
		awk '/^ *x:/ { v[n++] = $2 } /^ *y:/ { v[n++] = $2 } /^ *z:/ { v[n++] = $2 } /^ *w:/ { v[n++] = $2 }
			END { if (n >= 7) printf "%s %s %.4f\n", v[0], v[1], 2 * atan2(v[5], v[6]) }')
	echo "truth x y yaw: ${truth:-none}; odom x y yaw: ${odom:-none}"
	[ -n "$truth" ] && [ -n "$odom" ] || return 1
	awk -v t="$truth" -v o="$odom" 'BEGIN {
		split(t, a, " "); split(o, b, " ")
		for (i = 1; i <= 3; i++) if (a[i] > 0.01 || a[i] < -0.01 || b[i] > 0.01 || b[i] < -0.01) exit 1
	}'
}

# nv_drive ROBOT NAME SPEC MAX_CROSS MAX_FINAL MIN_LINEAR [SIGN_CHANGES]:
# one path on a fresh launch; bounds in metres; MIN_LINEAR: no driving
# command may be slower (m/s); SIGN_CHANGES: the most sign changes of the
# yaw-rate command allowed while driving (not checked if absent).
nv_drive() {
	local robot=$1 name=$2 spec=$3 max_cross=$4 max_final=$5 min_linear=$6 max_changes=${7:-}
	local tag="nav2_${robot}_${name//[^a-z0-9]/_}" what="nav2: $robot $name"
	local log="$logs/$tag.log" ev="$logs/$tag.eval"
	launch "$tag" nav2_example.launch.py robot:="$robot" sim_print:=50ms \
		"$sim_servosila" "$sim_furbot_vehicle" "$sim_furbot_bridge"
	check "$what: controller_server active" \
		within 60 bash -c 'ros2 lifecycle get /controller_server 2>&1 | grep -q "^active"'
	check "$what: truth and odom start at the origin (odom is the simulator's world)" \
		within 15 nv_start "$log"

	local before rec t0 t1 status
	before=$(wc -l <"$log")
	"$nv_tool" goal -path "$spec" -goal-checker "$nv_checker" >"$logs/$tag.goal.yaml"
	# Stopped with SIGINT: rclpy catches SIGTERM and the echo keeps running
	# (seen on Humble); rclpy's own SIGINT handler works in a background
	# job too. Unbuffered, so that nothing is lost either way.
	PYTHONUNBUFFERED=1 ros2 topic echo /cmd_vel geometry_msgs/msg/Twist --csv \
		>"$logs/$tag.cmd_vel.csv" 2>"$logs/$tag.cmd_vel.err" &
	rec=$!
	sleep 2 # the recorder finds the graph
	t0=$(date +%s.%N)
	timeout 180 ros2 action send_goal /follow_path nav2_msgs/action/FollowPath "$(cat "$logs/$tag.goal.yaml")" \
		>"$logs/$tag.goal.log" 2>&1 || true
	t1=$(date +%s.%N)
	sleep 2 # the robot runs on and comes to rest
	kill -INT "$rec" 2>/dev/null || true
	if ! within 10 bash -c "! kill -0 $rec 2>/dev/null"; then
		kill -KILL "$rec" 2>/dev/null || true
	fi
	wait "$rec" 2>/dev/null || true
	# The launch log while it drove: the simulator's truth and every
	# node's messages.
	tail -n +"$((before + 1))" "$log" >"$logs/$tag.truth.log"
	status=$(sed -n 's/.*Goal finished with status: \([A-Z_]*\).*/\1/p' "$logs/$tag.goal.log" | tail -n 1)
	local wall
	wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	check "$what: FollowPath ${status:-gave no result} (send_goal to result ${wall} s)" \
		bash -c "tail -n 20 '$logs/$tag.goal.log'; [ '$status' = SUCCEEDED ]"
	if ! "$nv_tool" eval -path "$spec" -truth "$logs/$tag.truth.log" -interval 0.05 \
		-cmd-vel "$logs/$tag.cmd_vel.csv" -min-linear "$min_linear" >"$ev" 2>&1; then
		check "$what: the drive can be evaluated" bash -c "cat '$ev'; false"
	else
		local cross final changes below
		cross=$(nv_get max_cross_track "$ev")
		final=$(nv_get final_error "$ev")
		changes=$(nv_get sign_changes "$ev")
		below=$(nv_get below_min "$ev")
		check "$what: truth starts on the path (start error $(nv_get start_error "$ev") m <= 0.01 m)" \
			between "$(nv_get start_error "$ev")" 0 0.01
		check "$what: final position error $final m <= $max_final m" between "$final" 0 "$max_final"
		check "$what: max cross-track error $cross m <= $max_cross m (at $(nv_get max_cross_track_at "$ev") m along)" \
			between "$cross" 0 "$max_cross"
		check "$what: no driving command below $min_linear m/s (min $(nv_get min_linear "$ev") m/s, $below below)" \
			between "$below" 0 0
		check "$what: no TF_OLD_DATA or extrapolation warnings while driving" \
			bash -c "! grep -aiE 'TF_OLD_DATA|extrapolation' '$logs/$tag.truth.log'"
		if [ -n "$max_changes" ]; then
			check "$what: $changes sign changes of cmd_vel angular.z while driving (at most $max_changes)" \
				between "$changes" 0 "$max_changes"
		fi
		nv_note "$robot $name: ${status:-no result}, drive $(nv_get drive_time "$ev") s (send_goal $wall s)," \
			"final error $final m (yaw $(nv_get final_yaw_error "$ev") rad), max cross-track $cross m," \
			"sign changes $changes, min linear.x $(nv_get min_linear "$ev") m/s," \
			"speed within 0.3 m of the end $(nv_get speed_near_end "$ev") m/s, travelled $(nv_get travelled "$ev") m"
	fi
	# Ctrl-C for the whole launch (its process group), as a user would;
	# stop_launch then makes sure it is gone.
	kill -INT -- "-${launched[-1]}" 2>/dev/null || true
	within 15 bash -c "! pgrep -g '${launched[-1]}' >/dev/null" || true
	stop_launch
}

# Bounds: docs/nav2.md, "FollowPath against the simulators".
nv_drive servosila "straight 4 m" straight:4 0.015 0.15 0.2
nv_drive servosila "arc r=4 m" arc:4:90 0.015 0.15 0.2 0
nv_drive furbot "straight 4 m" straight:4 0.05 0.31 0.1
nv_drive furbot "arc r=4 m" arc:4:90 0.05 0.31 0.1
nv_drive furbot "arc r=3.262 m (tightest)" arc:3.262:90 0.10 0.31 0.1
if [ -f "$logs/nav2.notes" ]; then
	sed 's/^/     nav2 figures: /' "$logs/nav2.notes"
fi
