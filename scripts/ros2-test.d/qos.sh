# QoS and diagnostics (sourced by ros2-test.sh). Issue 19 items 2 and 3.
#
# QoS: camera_publisher in namespace /q1 with two synthetic cameras (rear:
# image_raw, zoom: image_raw), the zoom's image overridden to best effort
# by qos_overrides. A reliable and a best-effort rclpy subscriber both
# receive the rear camera's images and camera_info (REP-2003's system
# default: reliable); on the overridden topic only the best-effort one
# does, and `ros2 topic info -v` shows the publisher's reliability. A bad
# override stops the node at start-up with an error naming it.
#
# Diagnostics: two Furbot stacks in namespaces f1 and f2 (one with
# diagnostics:=true: diagnostic_aggregator) and the jog stack: every node's
# statuses on /diagnostics under "<fully qualified node>: <component>",
# both robots apart, and /diagnostics_agg grouping them.

qos_dir="$logs/qos"
mkdir -p "$qos_dir"
cat >"$qos_dir/cameras.yaml" <<'YAML'
/**:
  ros__parameters:
    cameras: [rear, zoom]
    rear: {device: "pattern:rear", width: 320, height: 240, frame_rate: 10.0, pixel_format: GRBG, camera_info_url: ""}
    zoom: {device: "pattern:zoom", width: 320, height: 240, frame_rate: 10.0, pixel_format: YUYV, camera_info_url: ""}
    qos_overrides:
      /q1/zoom/image_raw:
        publisher:
          reliability: best_effort
          depth: 3
YAML

setsid ros2 run telebridge camera_publisher --ros-args -r __ns:=/q1 --params-file "$qos_dir/cameras.yaml" \
	>"$logs/qos_camera.log" 2>&1 &
launched+=($!)

# qos_receive TOPIC TYPE SECONDS: a reliable and a best-effort subscriber
# on TOPIC for SECONDS; prints "reliable N best_effort M" (messages each).
qos_receive() {
	/usr/bin/python3 - "$@" <<'PY'
import sys, time
import rclpy
from rclpy.qos import QoSProfile, ReliabilityPolicy, HistoryPolicy, DurabilityPolicy
from sensor_msgs.msg import Image, CameraInfo
topic, kind, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
msg = {"Image": Image, "CameraInfo": CameraInfo}[kind]
rclpy.init()
node = rclpy.create_node("qos_receive")
got = {"reliable": 0, "best_effort": 0}
def count(name):
    def cb(_):
        got[name] += 1
    return cb
for name, rel in (("reliable", ReliabilityPolicy.RELIABLE), ("best_effort", ReliabilityPolicy.BEST_EFFORT)):
    qos = QoSProfile(reliability=rel, durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST, depth=10)
    node.create_subscription(msg, topic, count(name), qos)
end = time.monotonic() + seconds
while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
print(f"reliable {got['reliable']} best_effort {got['best_effort']}")
PY
}

# qos_both TOPIC TYPE: both subscribers receive at least 5 messages in 8 s.
qos_both() {
	local out
	out=$(qos_receive "$1" "$2" 8) || return 1
	echo "$1: $out" | tee -a "$logs/qos.notes"
	set -- $out
	[ "$2" -ge 5 ] && [ "$4" -ge 5 ]
}

# qos_only_best_effort TOPIC: the best-effort subscriber receives, the
# reliable one (incompatible with a best-effort publisher) does not.
qos_only_best_effort() {
	local out
	out=$(qos_receive "$1" Image 8) || return 1
	echo "$1: $out" | tee -a "$logs/qos.notes"
	set -- $out
	[ "$2" -eq 0 ] && [ "$4" -ge 5 ]
}

# qos_info TOPIC RELIABILITY: `ros2 topic info -v` shows camera_publisher's
# publisher on TOPIC with RELIABILITY.
qos_info() {
	local out
	out=$(ros2 topic info -v "$1" 2>&1) || return 1
	awk '/Endpoint type: PUBLISHER/ { p = 1 } p && /Reliability:/ { print; exit }' <<<"$out" | tee -a "$logs/qos.notes"
	awk '/Node name: camera_publisher/ { n = 1 } n && /Endpoint type: PUBLISHER/ { p = 1 } p && /Reliability:/ { print $2; exit }' <<<"$out" | grep -qx "$2"
}

check "qos: camera_publisher comes up in /q1" \
	within 30 bash -c 'ros2 node list 2>/dev/null | grep -qx /q1/camera_publisher'
check "qos: it logs the override of /q1/zoom/image_raw" \
	within 10 grep -aq 'publisher /q1/zoom/image_raw: QoS best_effort, volatile, keep_last, depth 3 (qos_overrides)' "$logs/qos_camera.log"
check "qos: reliable and best-effort subscribers both receive rear/image_raw (system default)" \
	qos_both /q1/rear/image_raw Image
check "qos: reliable and best-effort subscribers both receive rear/camera_info" \
	qos_both /q1/rear/camera_info CameraInfo
check "qos: ros2 topic info -v shows rear/image_raw published RELIABLE" \
	qos_info /q1/rear/image_raw RELIABLE
check "qos: ros2 topic info -v shows the override: zoom/image_raw published BEST_EFFORT" \
	qos_info /q1/zoom/image_raw BEST_EFFORT
check "qos: on the overridden topic only the best-effort subscriber receives" \
	qos_only_best_effort /q1/zoom/image_raw
check "qos: the override parameters are declared and read-only" \
	bash -c 'ros2 param get /q1/camera_publisher qos_overrides./q1/zoom/image_raw.publisher.reliability | grep -q best_effort &&
		ros2 param get /q1/camera_publisher qos_overrides./q1/rear/camera_info.publisher.depth | grep -q "Integer value is: 10" &&
		ros2 param set /q1/camera_publisher qos_overrides./q1/rear/image_raw.publisher.reliability best_effort 2>&1 | grep -qi "read-only\|read only"'
stop_launch

qos_bad() {
	local out
	out=$(timeout 30 ros2 run telebridge camera_publisher --ros-args -r __ns:=/q1 --params-file "$qos_dir/cameras.yaml" \
		-p 'qos_overrides./q1/rear/image_raw.publisher.reliability:=fast' 2>&1) && return 1
	echo "$out" | tail -n 3
	grep -q 'qos_overrides./q1/rear/image_raw.publisher.reliability' <<<"$out" &&
		grep -q 'unknown reliability "fast" (want reliable, best_effort or system_default)' <<<"$out"
}
check "qos: a bad override stops the node at start-up with an error naming it" qos_bad

# Diagnostics: two vehicles, f1 (with the aggregator) and f2, on ports of
# their own (tb_port + 6 to + 9), and the jog stack.
launch diag_f1 furbot.launch.py sim:=true namespace:=f1 frame_prefix:=f1/ diagnostics:=true \
	sim_vehicle_port:=$((tb_port + 6)) sim_bridge_port:=$((tb_port + 7))
launch diag_f2 furbot.launch.py sim:=true namespace:=f2 frame_prefix:=f2/ \
	sim_vehicle_port:=$((tb_port + 8)) sim_bridge_port:=$((tb_port + 9))
launch diag_jog jog.launch.py sim:=true

for status in "/f1/furbot_bridge: vehicle link" "/f2/furbot_bridge: vehicle link" "/f1/furbot_bridge: subsystems" \
	"/f1/furbot_odometry: odometry" "/f2/furbot_odometry: odometry" "/f1/furbot_twist_control: control" \
	"/f2/furbot_twist_control: control" "/jog_server: jog" "/arm_sim: simulation"; do
	check "diagnostics: \"$status\" on /diagnostics" within 40 diag_status "$status" 10
done

diag_ok() {
	local out
	out=$(diag_status "$1" 10) || return 1
	echo "$out" | head -n 2
	grep -qx 'level 0' <<<"$out"
}
check "diagnostics: f2's bridge reports its own vehicle OK" within 30 diag_ok "/f2/furbot_bridge: vehicle link"
check "diagnostics: f1's odometry integrates its traction data (OK)" within 30 diag_ok "/f1/furbot_odometry: odometry"

# diag_agg NAME...: the latest /diagnostics_agg within 15 s holds every
# NAME (a status name there is the analyzer's path, then the status's own
# name without its leading '/', the other '/' turned into spaces).
diag_agg() {
	/usr/bin/python3 - "$@" <<'PY'
import sys, time
import rclpy
from diagnostic_msgs.msg import DiagnosticArray
rclpy.init()
node = rclpy.create_node("diag_agg")
got = []
node.create_subscription(DiagnosticArray, "/diagnostics_agg", lambda m: got.append(m), 10)
end = time.monotonic() + 15
while time.monotonic() < end:
    rclpy.spin_once(node, timeout_sec=0.1)
    if got and all(any(s.name == want for s in got[-1].status) for want in sys.argv[1:]):
        break
if not got:
    print("nothing on /diagnostics_agg within 15 s")
    sys.exit(1)
names = sorted(s.name for s in got[-1].status)
print("\n".join(names))
sys.exit(0 if all(w in names for w in sys.argv[1:]) else 1)
PY
}
check "diagnostics: /diagnostics_agg groups both vehicles under Furbot, the arm under Arm" \
	within 30 diag_agg "/Telebridge/Furbot" "/Telebridge/Furbot/Bridge" \
	"/Telebridge/Furbot/Bridge/f1 furbot_bridge: vehicle link" "/Telebridge/Furbot/Bridge/f2 furbot_bridge: vehicle link" \
	"/Telebridge/Furbot/Odometry/f2 furbot_odometry: odometry" "/Telebridge/Arm/Jog/jog_server: jog" \
	"/Telebridge/Arm/Simulated arm/arm_sim: simulation"
stop_launch
stop_launch
stop_launch
