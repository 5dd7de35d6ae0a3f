# Robot descriptions, joint states and tf (sourced by ros2-test.sh): each
# robot launched with its simulator and robot_state_publisher; tf2_echo
# from odom to every camera optical frame and the tool, the joint_states
# names and rates, the stamps of odom, tf and joint_states against each
# other, no TF_OLD_DATA or extrapolation warnings; the Furbot with a
# namespace and a frame prefix; Nav2's controller_server brought up where
# Nav2 is installed. Issue 10 item 7.

if ! ros2 pkg prefix robot_state_publisher >/dev/null 2>&1 || ! ros2 pkg prefix tf2_ros >/dev/null 2>&1; then
	echo "describe: SKIPPED: robot_state_publisher or tf2_ros is not installed (ros-humble-robot-state-publisher, ros-humble-tf2-ros)"
	return 0
fi

# ds_tf FROM TO: tf2_echo finds the transform within 10 s; prints it.
# (tf2_echo never ends by itself: its output goes to a file that is
# polled, since a pipe into grep -q would end it with SIGPIPE, which
# pipefail counts as a failure.)
ds_tf() {
	local f="$logs/tf2_echo.out" pid ok=1
	timeout 12 ros2 run tf2_ros tf2_echo "$1" "$2" >"$f" 2>&1 &
	pid=$!
	for _ in $(seq 40); do
		if grep -q -- '- Translation' "$f"; then
			ok=0
			break
		fi
		sleep 0.25
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if [ $ok -eq 0 ]; then
		echo "$1 -> $2: $(grep -m 1 -- '- Translation' "$f"), $(grep -m 1 -- 'RPY (degree)' "$f")" | tee -a "$logs/describe.notes"
	else
		tail -n 5 "$f"
	fi
	return $ok
}

# ds_names TOPIC NAME...: the next JointState on TOPIC names every NAME.
ds_names() {
	local topic=$1 out
	shift
	out=$(timeout 10 ros2 topic echo --once "$topic" sensor_msgs/msg/JointState --field name 2>/dev/null) || return 1
	echo "$topic names: $out"
	for n in "$@"; do
		grep -q "'$n'" <<<"$out" || return 1
	done
}

# ds_rate TOPIC LO HI: the rate at which TOPIC's JointStates are stamped
# is within [LO, HI] Hz: 1 / the median gap between the header stamps of
# 3 s of messages. The stamps are the publisher's, so a subscriber slowed
# by load (which makes `ros2 topic hz`, a receipt-time rate, read low)
# does not change the figure; a node that skips samples does.
ds_rate() {
	local r
	r=$(/usr/bin/python3 - "$1" <<'PY'
import statistics, sys, time
import rclpy
from rclpy.qos import QoSProfile
from sensor_msgs.msg import JointState
rclpy.init()
node = rclpy.create_node("describe_rate")
stamps = []
node.create_subscription(JointState, sys.argv[1], lambda m: stamps.append(m.header.stamp.sec + m.header.stamp.nanosec * 1e-9), QoSProfile(depth=500))
end = time.monotonic() + 10
while not stamps and time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
first = time.monotonic()
while time.monotonic() < first + 3:
    rclpy.spin_once(node, timeout_sec=0.1)
received = len(stamps) / (time.monotonic() - first)
s = sorted(set(stamps))
gaps = [b - a for a, b in zip(s, s[1:]) if b > a]
if len(gaps) < 5:
    print(f"none ({len(stamps)} messages)")
else:
    print(f"{1 / statistics.median(gaps):.3f} Hz by header stamps (received {received:.1f}/s by this subscriber, {len(stamps)} messages)")
PY
)
	echo "$1 rate ${r:-none} (want $2..$3 Hz)" | tee -a "$logs/describe.notes"
	[[ $r =~ ^[0-9] ]] && between "${r%% *}" "$2" "$3"
}

# ds_stamps NS ODOM_FRAME BASE_FRAME PERIOD: for 3 s, the stamp of every
# odom message has a tf ODOM_FRAME -> BASE_FRAME and a joint_states message
# within PERIOD seconds.
ds_stamps() {
	/usr/bin/python3 - "$@" <<'PY'
import sys, time
import rclpy
from nav_msgs.msg import Odometry
from sensor_msgs.msg import JointState
from tf2_msgs.msg import TFMessage
ns, odom_frame, base_frame, period = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
rclpy.init()
node = rclpy.create_node("describe_stamps")
odom, tf, js = [], [], []
t = lambda s: s.sec + s.nanosec * 1e-9
node.create_subscription(Odometry, ns + "/odom", lambda m: odom.append(t(m.header.stamp)), 50)
node.create_subscription(JointState, ns + "/joint_states", lambda m: js.append(t(m.header.stamp)), 50)
node.create_subscription(TFMessage, "/tf", lambda m: tf.extend(
    t(x.header.stamp) for x in m.transforms if x.header.frame_id == odom_frame and x.child_frame_id == base_frame), 50)
end = time.monotonic() + 3
while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
if len(odom) < 10 or not tf or not js:
    print(f"too few messages: odom {len(odom)}, tf {len(tf)}, joint_states {len(js)}")
    sys.exit(1)
gap = lambda s, xs: min(abs(s - x) for x in xs)
worst_tf = max(gap(s, tf) for s in odom[2:-2])
worst_js = max(gap(s, js) for s in odom[2:-2])
print(f"{len(odom)} odom: worst stamp gap to tf {worst_tf * 1e3:.1f} ms, to joint_states {worst_js * 1e3:.1f} ms (limit {period * 1e3:.0f} ms)")
sys.exit(0 if worst_tf <= period and worst_js <= period else 1)
PY
}

# ds_no_tf_warnings LOG: no TF_OLD_DATA or extrapolation warnings.
ds_no_tf_warnings() {
	! grep -aiE 'TF_OLD_DATA|extrapolation' "$1"
}

# --- Servosila: driver, simulator, robot_state_publisher
launch describe_servosila servosila.launch.py sim:=true "$sim_servosila"
ds_log="$logs/describe_servosila.log"
check "describe: servosila robot_state_publisher holds the description" \
	within 30 bash -c 'ros2 param get /robot_state_publisher robot_description 2>/dev/null | grep -q servosila_engineer'
check "describe: servosila joint_states names every joint of the URDF" \
	within 20 ds_names /joint_states waist shoulder elbow neck flippers gripper
check "describe: servosila joint_states at odom_rate (20 Hz)" ds_rate /joint_states 16 24
for frame in zoom_optical_frame front_left_optical_frame front_right_optical_frame rear_optical_frame tool_frame laser_link base_footprint; do
	check "describe: servosila tf odom -> $frame" ds_tf odom "$frame"
done
check "describe: servosila odom, tf and joint_states stamps within one odom period (50 ms)" \
	ds_stamps "" odom base_link 0.05
check "describe: servosila no TF_OLD_DATA or extrapolation warnings" ds_no_tf_warnings "$ds_log"
stop_launch

# --- Furbot, in a namespace with a frame prefix
launch describe_furbot furbot.launch.py sim:=true "$sim_furbot_vehicle" "$sim_furbot_bridge" namespace:=f1 frame_prefix:=f1/
ds_flog="$logs/describe_furbot.log"
check "describe: furbot joint_states in the namespace names the wheels and steering" \
	within 30 ds_names /f1/joint_states rear_left_wheel_joint rear_right_wheel_joint \
	front_left_steering_joint front_right_steering_joint front_left_wheel_joint front_right_wheel_joint
check "describe: furbot joint_states with every traction sample (100 Hz)" ds_rate /f1/joint_states 80 120
for frame in f1/front_left_wheel_link f1/rear_right_wheel_link f1/base_footprint; do
	check "describe: furbot tf f1/odom -> $frame" ds_tf f1/odom "$frame"
done
check "describe: furbot odom, tf and joint_states stamps within one status period (10 ms)" \
	ds_stamps /f1 f1/odom f1/base_link 0.01
check "describe: furbot no TF_OLD_DATA or extrapolation warnings" ds_no_tf_warnings "$ds_flog"
# ros2 launch orphans its nodes on SIGTERM (see furbot.sh): SIGINT first.
pkill -INT -f "$install/telebridge/lib/telebridge/[f]urbot" || true
stop_launch

# --- Nav2's controller on each robot, where Nav2 is installed
if ros2 pkg prefix nav2_controller >/dev/null 2>&1 && ros2 pkg prefix nav2_lifecycle_manager >/dev/null 2>&1 &&
	ros2 pkg prefix nav2_regulated_pure_pursuit_controller >/dev/null 2>&1; then
	for robot in servosila furbot; do
		launch "describe_nav2_$robot" nav2_example.launch.py robot:=$robot "$sim_servosila" \
			"$sim_furbot_vehicle" "$sim_furbot_bridge"
		check "describe: nav2 controller_server active on the $robot" \
			within 40 bash -c 'ros2 lifecycle get /controller_server 2>/dev/null | grep -q "^active"'
		check "describe: nav2 on the $robot: no TF_OLD_DATA or extrapolation warnings" \
			ds_no_tf_warnings "$logs/describe_nav2_$robot.log"
		pkill -INT -f "$install/telebridge/lib/telebridge/[f]urbot" || true
		stop_launch
	done
else
	echo "describe: Nav2 checks SKIPPED: nav2_controller, nav2_lifecycle_manager or nav2_regulated_pure_pursuit_controller is not installed"
fi
[ -f "$logs/describe.notes" ] && sed 's/^/     describe figures: /' "$logs/describe.notes"
