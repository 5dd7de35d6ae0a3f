# RViz configurations and Foxglove layouts (sourced by ros2-test.sh), issue
# 19 item 7: the files are installed, the robot launch files offer rviz:=,
# and every topic a file names delivers a message on the live graph of the
# robot launched with its simulator: an RViz display's topic to a
# subscriber with the QoS the file gives it, a Foxglove panel's topic with
# the type the panel reads; the fixed frame reaches the robot on tf.
# rviz2 and Foxglove Studio themselves are not run: rviz2 is not built on
# the test machines (its OGRE vendor package fetches sources at build
# time), Foxglove Studio is a desktop application. Where rviz2 is
# installed, rviz:=true starts it; else the launch says it is missing.

viz_share="$install/telebridge/share/telebridge"

# viz_topics RVIZ_FILE FOXGLOVE_FILE: every topic of the two files (the
# default namespace's) delivers a message within 20 s; the RViz fixed
# frame reaches the view's target frame on tf. One line per topic, also
# in $logs/viz.notes.
viz_topics() {
	viz_topics_py "$@" | tee -a "$logs/viz.notes"
}
viz_topics_py() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys, time
import rclpy
import yaml
from rclpy.qos import QoSProfile, ReliabilityPolicy, DurabilityPolicy, HistoryPolicy
from std_msgs.msg import String
from nav_msgs.msg import Odometry
from sensor_msgs.msg import CameraInfo, CompressedImage, Image, JointState
from diagnostic_msgs.msg import DiagnosticArray
import tf2_ros

rviz_file, fox_file = sys.argv[1], sys.argv[2]
rviz_types = {"rviz_default_plugins/RobotModel": String, "rviz_default_plugins/Odometry": Odometry,
              "rviz_default_plugins/Image": Image}
qos_names = {"Reliable": ReliabilityPolicy.RELIABLE, "Best Effort": ReliabilityPolicy.BEST_EFFORT,
             "Volatile": DurabilityPolicy.VOLATILE, "Transient Local": DurabilityPolicy.TRANSIENT_LOCAL}
want = []  # (what, topic, type, qos or None)
doc = yaml.safe_load(open(rviz_file))
manager = doc["Visualization Manager"]
for d in manager["Displays"]:
    cls = d["Class"]
    for key in ("Topic", "Description Topic"):
        if key in d:
            t = d[key]
            q = QoSProfile(depth=t["Depth"], history=HistoryPolicy.KEEP_LAST,
                           reliability=qos_names[t["Reliability Policy"]], durability=qos_names[t["Durability Policy"]])
            want.append(("rviz " + d["Name"], (t["Value"]), rviz_types[cls], q))
fox = json.load(open(fox_file))
for pid, c in fox["configById"].items():
    kind = pid.split("!")[0]
    if kind == "3D":
        for layer in c["layers"].values():
            if layer["layerId"] == "foxglove.Urdf":
                want.append((pid + " URDF", (layer["topic"]), String, None))
        for t in c["topics"]:
            want.append((pid + " topic", (t), Odometry, None))
    elif kind == "Image":
        img = c["imageMode"]["imageTopic"]
        want.append((pid, (img), CompressedImage if img.endswith("/compressed") else Image, None))
        want.append((pid + " calibration", (c["imageMode"]["calibrationTopic"]), CameraInfo, None))
    elif kind == "Plot":
        for p in c["paths"]:
            want.append((pid, (p["value"].split(".")[0]), Odometry, None))
    elif kind == "DiagnosticSummary":
        want.append((pid, (c["topicToRender"]), DiagnosticArray, None))
    elif kind == "RawMessages":
        want.append((pid, (c["topicPath"]), JointState, None))
    else:
        sys.exit(f"{pid}: no check for this panel type")

rclpy.init()
node = rclpy.create_node("viz_topics")
start = time.monotonic()
got = {}
subs = []
def subscribe(i, topic, typ, q):
    subs.append(node.create_subscription(typ, topic, lambda m, i=i: got.setdefault(i, time.monotonic()), q))
for i, (what, topic, typ, q) in enumerate(want):
    if q is None:
        # As foxglove_bridge does: the publisher's reliability and durability.
        end = time.monotonic() + 20
        infos = []
        while not infos and time.monotonic() < end:
            infos = node.get_publishers_info_by_topic(topic)
            rclpy.spin_once(node, timeout_sec=0.2)
        if not infos:
            print(f"FAIL {what}: no publisher on {topic}")
            continue
        pq = infos[0].qos_profile
        q = QoSProfile(depth=5, history=HistoryPolicy.KEEP_LAST, reliability=pq.reliability, durability=pq.durability)
    subscribe(i, topic, typ, q)
buf = tf2_ros.Buffer()
listener = tf2_ros.TransformListener(buf, node)
fixed = manager["Global Options"]["Fixed Frame"]
target = manager["Views"]["Current"].get("Target Frame", "<Fixed Frame>")
tf_ok = False
end = time.monotonic() + 20
while time.monotonic() < end and (len(got) < len(want) or not tf_ok):
    rclpy.spin_once(node, timeout_sec=0.1)
    if target != "<Fixed Frame>" and not tf_ok:
        tf_ok = buf.can_transform(fixed, target, rclpy.time.Time())
    elif target == "<Fixed Frame>":
        tf_ok = True
ok = True
for i, (what, topic, typ, q) in enumerate(want):
    if i in got:
        print(f"ok   {what}: {topic} ({typ.__name__}), first message {got[i] - start:.1f} s after the start")
    else:
        ok = False
        print(f"FAIL {what}: nothing on {topic} ({typ.__name__}) in 20 s")
if target == "<Fixed Frame>":
    print(f"ok   the view's target is the fixed frame {fixed}")
else:
    print(("ok  " if tf_ok else "FAIL") + f" tf {fixed} -> {target}")
sys.exit(0 if ok and tf_ok else 1)
PY
}

for f in rviz/servosila.rviz rviz/furbot.rviz rviz/arm.rviz \
	foxglove/telebridge-servosila.json foxglove/telebridge-furbot.json foxglove/telebridge-arm.json; do
	check "viz: share/telebridge/$f is installed" test -s "$viz_share/$f"
done
for f in servosila furbot jog; do
	check "viz: $f.launch.py offers rviz:=" bash -c "ros2 launch telebridge $f.launch.py --show-args | grep -q \"'rviz':\""
done

if ros2 pkg prefix rviz2 >/dev/null 2>&1; then
	viz_rviz_log="rviz2 is installed: rviz:=true starts it"
	viz_rviz_check() { within 30 bash -c 'ros2 node list 2>/dev/null | grep -q rviz2'; }
else
	viz_rviz_log="rviz2 is not installed: rviz:=true says so"
	viz_rviz_check() { within 30 grep -aq 'rviz2 is not installed' "$1"; }
fi

# --- Servosila with its cameras
launch viz_servosila servosila.launch.py sim:=true "$sim_servosila" rviz:=true
launch viz_cameras cameras.launch.py sim:=true
check "viz: servosila $viz_rviz_log" viz_rviz_check "$logs/viz_servosila.log"
check "viz: every topic of servosila.rviz and telebridge-servosila.json delivers, tf odom -> base_link" \
	viz_topics "$viz_share/rviz/servosila.rviz" "$viz_share/foxglove/telebridge-servosila.json"
stop_launch
stop_launch

# --- Furbot
launch viz_furbot furbot.launch.py sim:=true "$sim_furbot_vehicle" "$sim_furbot_bridge" rviz:=true
check "viz: furbot $viz_rviz_log" viz_rviz_check "$logs/viz_furbot.log"
check "viz: every topic of furbot.rviz and telebridge-furbot.json delivers, tf odom -> base_link" \
	viz_topics "$viz_share/rviz/furbot.rviz" "$viz_share/foxglove/telebridge-furbot.json"
# ros2 launch orphans its nodes on SIGTERM (see furbot.sh): SIGINT first.
pkill -INT -f "$install/telebridge/lib/telebridge/[f]urbot" || true
stop_launch

# --- The jog arm. Its description comes from robot_state_publisher; where
# jog.launch.py does not start one yet, the check starts it on the same
# URDF (share/telebridge/urdf/ur5_like.urdf), as a robot's launch does.
launch viz_jog jog.launch.py sim:=true rviz:=true
if ! grep -q robot_state_publisher "$viz_share/launch/jog.launch.py"; then
	/usr/bin/python3 -c '
import sys, yaml
urdf = open(sys.argv[1]).read()
yaml.safe_dump({"robot_state_publisher": {"ros__parameters": {"robot_description": urdf}}}, open(sys.argv[2], "w"))
' "$viz_share/urdf/ur5_like.urdf" "$logs/viz_rsp.yaml"
	setsid ros2 run robot_state_publisher robot_state_publisher --ros-args --params-file "$logs/viz_rsp.yaml" \
		>"$logs/viz_rsp.log" 2>&1 &
	launched+=($!)
fi
check "viz: jog arm $viz_rviz_log" viz_rviz_check "$logs/viz_jog.log"
check "viz: every topic of arm.rviz and telebridge-arm.json delivers" \
	viz_topics "$viz_share/rviz/arm.rviz" "$viz_share/foxglove/telebridge-arm.json"
if ! grep -q robot_state_publisher "$viz_share/launch/jog.launch.py"; then
	stop_launch
fi
stop_launch
if [ -f "$logs/viz.notes" ]; then
	sed 's/^/     viz figures: /' "$logs/viz.notes"
fi
