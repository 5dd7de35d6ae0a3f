# FollowJointTrajectory on arm_sim and servosila_driver (sourced by
# ros2-test.sh). First the action server ~/follow_joint_trajectory of the
# simulated arm, launched with
# `ros2 launch telebridge jog.launch.py sim:=true` (the ur5_like arm at
# 0.2 -1.4 1.6 -1.8 -1.57 0.3 rad), driven with `ros2 action send_goal`.
# arm_sim's joint_states are the simulation's truth, recorded with their
# header stamps (arm_sim's wall clock, the clock `date` reads here).

launch fjt jog.launch.py sim:=true
fjt_action=/arm_sim/follow_joint_trajectory
fjt_names="[shoulder_pan_joint, shoulder_lift_joint, elbow_joint, wrist_1_joint, wrist_2_joint, wrist_3_joint]"

check "trajectory: arm_sim serves $fjt_action (control_msgs/action/FollowJointTrajectory)" \
	within 30 bash -c 'ros2 action list -t 2>/dev/null | grep -qx "$0 \[control_msgs/action/FollowJointTrajectory\]"' "$fjt_action"

# fjt_at FILE T: the positions recorded nearest to time T [s] (6 values)
# and how far from T that record is [s].
fjt_at() {
	awk -F, -v t="$2" 'NF >= 15 { ts = $1 + $2 / 1e9; d = ts - t; if (d < 0) d = -d
		if (best == "" || d < best) { best = d; p = $10 " " $11 " " $12 " " $13 " " $14 " " $15 } }
		END { print p, best }' "$1"
}

# fjt_goal_client ACTION GOAL: an rclpy action client sends GOAL (JSON:
# joints, points of positions p, velocities v and time t [s], goal
# tolerances tol by joint [rad], time_tol [s]) stamped 1 s after the
# server was found on this wall clock (the arm's: a slow start of the
# client costs nothing), prints "start <stamp>" and then the goal's final
# status and error code; it succeeds when the goal did.
fjt_goal_client() {
	PYTHONUNBUFFERED=1 timeout 60 /usr/bin/python3 - "$@" <<'PY'
import json, sys, time
import rclpy
from rclpy.action import ActionClient
from control_msgs.action import FollowJointTrajectory
from control_msgs.msg import JointTolerance
from trajectory_msgs.msg import JointTrajectoryPoint
from builtin_interfaces.msg import Duration, Time
spec = json.loads(sys.argv[2])
dur = lambda s: Duration(sec=int(s), nanosec=int(round((s - int(s)) * 1e9)))
rclpy.init()
node = rclpy.create_node("fjt_goal_client")
client = ActionClient(node, FollowJointTrajectory, sys.argv[1])
if not client.wait_for_server(timeout_sec=20):
    sys.exit("no action server " + sys.argv[1])
goal = FollowJointTrajectory.Goal()
goal.trajectory.joint_names = spec["joints"]
goal.trajectory.points = [JointTrajectoryPoint(positions=[float(x) for x in q["p"]], velocities=[float(x) for x in q["v"]],
                                               time_from_start=dur(q["t"])) for q in spec["points"]]
goal.goal_tolerance = [JointTolerance(name=n, position=float(v)) for n, v in spec["tol"].items()]
goal.goal_time_tolerance = dur(spec["time_tol"])
start = time.time() + 1.0
goal.trajectory.header.stamp = Time(sec=int(start), nanosec=int((start - int(start)) * 1e9))
print(f"start {start:.3f}")
sent = client.send_goal_async(goal)
rclpy.spin_until_future_complete(node, sent, timeout_sec=10)
handle = sent.result()
if handle is None or not handle.accepted:
    sys.exit("goal not accepted")
result = handle.get_result_async()
rclpy.spin_until_future_complete(node, result, timeout_sec=30)
if result.result() is None:
    sys.exit("no result within 30 s")
r = result.result()
print(f"final status {r.status} (4 is SUCCEEDED), error_code {r.result.error_code} {r.result.error_string!r}")
sys.exit(0 if r.status == 4 and r.result.error_code == 0 else 1)
PY
}

# A 3-point trajectory from an rclpy client, stamped 1 s ahead: the truth
# is within 0.02 rad of each knot at the knot's time, and the goal
# succeeds with error_code 0.
fjt_follow() {
	local rec="$logs/fjt-follow.csv" start k knot got off ok=0
	js_record_motion "$rec"
	fjt_goal_client "$fjt_action" '{"joints": ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"],
		"points": [{"p": [0.5, -1.2, 1.6, -1.8, -1.57, 0.6], "v": [0.3, 0.2, 0, 0, 0, 0.3], "t": 1},
			{"p": [0.8, -1.0, 1.4, -1.8, -1.57, 0.9], "v": [0.1, 0, 0, 0, 0, 0], "t": 2},
			{"p": [0.4, -1.3, 1.5, -1.8, -1.57, 0.5], "v": [0, 0, 0, 0, 0, 0], "t": 3}],
		"tol": {"shoulder_pan_joint": 0.001}, "time_tol": 1}' >"$logs/fjt-follow.out" 2>&1 || ok=1
	js_motion_wait "$rec"
	cat "$logs/fjt-follow.out"
	start=$(sed -n 's/^start \([0-9.]*\)$/\1/p' "$logs/fjt-follow.out")
	[ -n "$start" ] || return 1
	k=0
	for knot in "0.5 -1.2 1.6 -1.8 -1.57 0.6" "0.8 -1.0 1.4 -1.8 -1.57 0.9" "0.4 -1.3 1.5 -1.8 -1.57 0.5"; do
		k=$((k + 1))
		got=$(fjt_at "$rec" "$(awk -v s="$start" -v k=$k 'BEGIN { printf "%.3f", s + k }')")
		off=${got##* } got=${got% *}
		echo "knot $k: truth $got ($off s from the knot's time), knot $knot" | tee -a "$logs/fjt.notes"
		near "$got" "$knot" 0.02 && awk -v o="$off" 'BEGIN { exit !(o < 0.03) }' || ok=1
	done
	return $ok
}
check "trajectory: a 3-point goal is followed (truth within 0.02 rad of each knot at its time) and succeeds" fjt_follow

# A goal naming a joint the arm does not have is rejected, and one beyond
# the joint limits too (INVALID_JOINTS, INVALID_GOAL: arm_sim logs them).
fjt_reject() {
	timeout 60 ros2 action send_goal "$fjt_action" control_msgs/action/FollowJointTrajectory \
		"{trajectory: {joint_names: [nope], points: [{positions: [0.1], time_from_start: {sec: 1}}]}}" >"$logs/fjt-reject.out" 2>&1
	timeout 60 ros2 action send_goal "$fjt_action" control_msgs/action/FollowJointTrajectory \
		"{trajectory: {joint_names: $fjt_names, points: [{positions: [9, -1.3, 1.5, -1.8, -1.57, 0.5], time_from_start: {sec: 9}}]}}" >>"$logs/fjt-reject.out" 2>&1
	cat "$logs/fjt-reject.out"
	[ "$(grep -c 'Goal was rejected' "$logs/fjt-reject.out")" -eq 2 ] &&
		grep -aq 'INVALID_JOINTS' "$logs/fjt.log" && grep -aq 'INVALID_GOAL' "$logs/fjt.log"
}
check "trajectory: goals with unknown joints or beyond the limits are rejected (INVALID_JOINTS, INVALID_GOAL)" fjt_reject

# fjt_cancel_client ACTION: an rclpy action client sends a slow goal
# (joint 1 to 2.4 rad in 10 s), cancels it 2 s after it was accepted and
# prints the cancel response and the goal's final status. (The CLI's own
# cancel on SIGINT is not used: it cancels only if the goal's status
# message reached it first, a race it loses under load.)
fjt_cancel_client() {
	PYTHONUNBUFFERED=1 timeout 60 /usr/bin/python3 - "$@" <<'PY'
import sys, time
import rclpy
from rclpy.action import ActionClient
from control_msgs.action import FollowJointTrajectory
from trajectory_msgs.msg import JointTrajectoryPoint
from builtin_interfaces.msg import Duration
rclpy.init()
node = rclpy.create_node("fjt_cancel_client")
client = ActionClient(node, FollowJointTrajectory, sys.argv[1])
if not client.wait_for_server(timeout_sec=20):
    sys.exit("no action server " + sys.argv[1])
goal = FollowJointTrajectory.Goal()
goal.trajectory.joint_names = ["shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"]
goal.trajectory.points = [JointTrajectoryPoint(positions=[2.4, -1.3, 1.5, -1.8, -1.57, 0.5], time_from_start=Duration(sec=10))]
sent = client.send_goal_async(goal)
rclpy.spin_until_future_complete(node, sent, timeout_sec=20)
handle = sent.result()
if handle is None or not handle.accepted:
    sys.exit("goal not accepted")
print("goal accepted")
result = handle.get_result_async()
end = time.monotonic() + 2
while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.05)
canceling = handle.cancel_goal_async()
rclpy.spin_until_future_complete(node, canceling, timeout_sec=10)
r = canceling.result()
if r is None:
    sys.exit("no cancel response within 10 s")
print(f"cancel response: return_code {r.return_code}, goals canceling {len(r.goals_canceling)}")
rclpy.spin_until_future_complete(node, result, timeout_sec=10)
if result.result() is None:
    sys.exit("no result within 10 s of the cancel")
print(f"final status {result.result().status} (5 is CANCELED)")
sys.exit(0 if r.return_code == 0 and len(r.goals_canceling) == 1 and result.result().status == 5 else 1)
PY
}

# A slow goal canceled 2 s after it was accepted by an rclpy client: the
# cancel is accepted, the goal ends CANCELED, and the arm stops where it
# was, short of the goal, and stays.
fjt_cancel() {
	local a1 a2 ok=0
	fjt_cancel_client "$fjt_action" >"$logs/fjt-cancel.out" 2>&1 || ok=1
	cat "$logs/fjt-cancel.out"
	sleep 1
	js_record 1 "$logs/fjt-cancel1.csv"
	a1=$(js_last "$logs/fjt-cancel1.csv")
	sleep 1
	js_record 1 "$logs/fjt-cancel2.csv"
	a2=$(js_last "$logs/fjt-cancel2.csv")
	echo "cancel: truth $a1, then $a2" | tee -a "$logs/fjt.notes"
	[ $ok -eq 0 ] && near "$a1" "$a2" 1e-6 && ! near "$a1" "2.4 -1.3 1.5 -1.8 -1.57 0.5" 0.1
}
check "trajectory: a goal canceled by an rclpy client ends CANCELED and the arm stops where it is" fjt_cancel
stop_launch

# The same action on servosila_driver (the Servosila arm), launched with
# its simulator (servosila.launch.py sim:=true), which prints its true
# joint angles every 50 ms into the launch log; fjt_sa_poll samples them
# with the wall clock.
launch fjt_sa servosila.launch.py sim:=true sim_print:=50ms "$sim_servosila"
fjt_sa_log="$logs/fjt_sa.log"
fjt_sa_action=/servosila_driver/follow_joint_trajectory
check "trajectory: servosila_driver serves $fjt_sa_action, the simulator hears the driver" \
	within 30 bash -c 'ros2 action list 2>/dev/null | grep -qx "$0" && grep -aq "link true" "$1"' "$fjt_sa_action" "$fjt_sa_log"
# fjt_sa_arm: the simulator's latest waist, shoulder, elbow and neck [rad].
fjt_sa_arm() {
	grep -a 'link true' "$fjt_sa_log" | tail -n 1 |
		sed -n 's/.* waist \([-+0-9.]*\) shoulder \([-+0-9.]*\) elbow \([-+0-9.]*\) neck \([-+0-9.]*\) rad .*/\1 \2 \3 \4/p'
}
# fjt_sa_poll SECONDS FILE: lines of wall-clock time and the four joints,
# every 20 ms.
fjt_sa_poll() {
	local end
	end=$(awk -v n="$(date +%s.%N)" -v s="$1" 'BEGIN { printf "%.3f", n + s }')
	while awk -v n="$(date +%s.%N)" -v e="$end" 'BEGIN { exit !(n < e) }'; do
		echo "$(date +%s.%N) $(fjt_sa_arm)" >>"$2"
		sleep 0.02
	done
}
# A 3-point trajectory of the waist and the shoulder (a partial goal: the
# elbow and the neck hold) from the rclpy client, stamped 1 s ahead: the truth is within 0.05 rad
# of each knot at its time (the simulator prints every 50 ms), the goal
# succeeds and the arm rests within 0.02 rad of the last point.
fjt_sa_follow() {
	local poll="$logs/fjt-sa.txt" start k knot got ok=0
	: >"$poll"
	fjt_sa_poll 20 "$poll" &
	local poller=$!
	fjt_goal_client "$fjt_sa_action" '{"joints": ["waist", "shoulder"],
		"points": [{"p": [0.3, -0.2], "v": [0.2, 0], "t": 1.5}, {"p": [0.5, 0.1], "v": [0, 0.1], "t": 3}, {"p": [0.2, 0.0], "v": [0, 0], "t": 4.5}],
		"tol": {"waist": 0.02, "shoulder": 0.02}, "time_tol": 3}' >"$logs/fjt-sa.out" 2>&1 || ok=1
	wait "$poller"
	cat "$logs/fjt-sa.out"
	start=$(sed -n 's/^start \([0-9.]*\)$/\1/p' "$logs/fjt-sa.out")
	[ -n "$start" ] || return 1
	k=0
	for knot in "1.5 0.3 -0.2" "3 0.5 0.1" "4.5 0.2 0.0"; do
		set -- $knot
		got=$(awk -v t="$(awk -v s="$start" -v k="$1" 'BEGIN { printf "%.3f", s + k }')" 'NF >= 5 { d = $1 - t; if (d < 0) d = -d; if (best == "" || d < best) { best = d; p = $2 " " $3 } } END { print p }' "$poll")
		echo "servosila knot at $1 s: truth waist, shoulder $got; knot $2 $3" | tee -a "$logs/fjt.notes"
		near "$got" "$2 $3" 0.05 || ok=1
	done
	got=$(fjt_sa_arm)
	echo "servosila at rest: $got" | tee -a "$logs/fjt.notes"
	near "$got" "0.2 0.0 0 0" 0.02 || ok=1
	return $ok
}
check "trajectory: servosila_driver follows a 3-point goal (truth within 0.05 rad of each knot at its time) and succeeds" fjt_sa_follow
check "trajectory: servosila_driver refused no trajectory" \
	bash -c '! grep -a "goal aborted\|joint trajectory refused" "$0"' "$fjt_sa_log"
stop_launch
[ -f "$logs/fjt.notes" ] && sed 's/^/     trajectory figures: /' "$logs/fjt.notes"
