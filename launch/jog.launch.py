"""Jog stack: the jog_server node (drag&bot-style jog services) on an arm
described by a URDF, and with sim:=true the simulated arm (arm_sim) that
follows its targets and publishes joint_states.

    ros2 launch telebridge jog.launch.py sim:=true
    ros2 launch telebridge jog.launch.py urdf:=/path/robot.urdf \
        fixed_frame:=base_link flange_frame:=tool0 \
        trajectory_topic:=/arm_controller/joint_trajectory

The URDF file's text becomes the robot_description parameter of both nodes.
Without sim, joint_states must come from the robot (e.g. ros2_control's
joint_state_broadcaster) and the targets go to its trajectory controller.
console:=true also starts the operator console with the jog panel on the
same URDF, frames and parameters file (console.launch.py;
console_listen:=HOST:PORT, default 127.0.0.1:8080). rviz:=true also starts
RViz2 on share/telebridge/rviz/arm.rviz (model, tf) in fixed_frame, where
rviz2 is installed.
diagnostics:=true also starts diagnostic_aggregator with
params/diagnostics_analyzers.yaml (one per graph; launch/telebridge_diagnostics.py).

robot_state_publisher publishes the arm's model on tf from joint_states
(description:=false leaves it out; frame_prefix:=arm1/ prefixes its
frames). namespace:=/arm1 puts the nodes and jog_server's drag&bot
services and topics (interface_namespace) under /arm1, and arm_sim's
joint_states and, unless given, trajectory_topic with them, so that two
arms share one graph; empty keeps drag&bot's absolute names.

use_sim_time is not offered: jog_server's heartbeat deadman and motion
profiles run on the wall clock on purpose (a paused /clock must not keep a
motion alive), and it refuses use_sim_time at start-up.
"""
import os
import sys
import tempfile

import yaml

from ament_index_python.packages import PackageNotFoundError, get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import telebridge_console as console  # noqa: E402  (launch/telebridge_console.py)
import telebridge_diagnostics as diagnostics  # noqa: E402  (launch/telebridge_diagnostics.py)
import telebridge_description as description  # noqa: E402  (launch/telebridge_description.py)

# A comfortable start pose of the default arm (ur5_like), away from its
# singularities, for arm_sim.
HOME = [0.2, -1.4, 1.6, -1.8, -1.57, 0.3]


def nodes(context):
    def arg(name):
        return LaunchConfiguration(name).perform(context)

    with open(arg("urdf"), encoding="utf-8") as f:
        urdf = f.read()
    ns = arg("namespace").strip().strip("/")
    ns = "/" + ns if ns else ""
    trajectory = arg("trajectory_topic")
    if ns and trajectory == DEFAULT_TRAJECTORY:
        trajectory = ns + trajectory
    overrides = {
        "robot_description": urdf,
        "robot_data.fixed_frame": arg("fixed_frame"),
        "robot_data.flange_frame": arg("flange_frame"),
        "trajectory_topic": trajectory,
        "interface_namespace": ns,
    }
    # arm_sim runs on this host's clock: stamped targets keep the cycle's
    # schedule when one arrives late. "auto" leaves a real controller to
    # the parameters file (default false: "start now").
    stamp = arg("stamp_trajectories").lower()
    if stamp == "auto" and arg("sim").lower() in ("true", "1"):
        stamp = "true"
    if stamp != "auto":
        overrides["stamp_trajectories"] = stamp in ("true", "1")
    server = Node(
        package="telebridge",
        executable="jog_server",
        name="jog_server",
        namespace=ns,
        output="screen",
        emulate_tty=True,
        parameters=[params_in(arg("params_file"), ns), overrides],
    )
    sim_params = {
        "robot_description": urdf,
        "trajectory_topic": trajectory,
    }
    if arg("urdf") == DEFAULT_URDF[0]:
        sim_params["initial_positions"] = HOME
    sim = Node(
        package="telebridge",
        executable="arm_sim",
        name="arm_sim",
        namespace=ns,
        output="screen",
        emulate_tty=True,
        parameters=[sim_params],
        # arm_sim publishes the absolute /joint_states: into the namespace.
        remappings=[("/joint_states", ns + "/joint_states")] if ns else [],
        condition=IfCondition(arg("sim")),
    )
    return [server, sim, state_publisher(arg, urdf, ns)]


def params_in(path, ns):
    """The parameters file path, or with a namespace a copy whose
    jog_server block is keyed ns/jog_server (a plain jog_server key names
    the node in the root namespace only)."""
    if not ns:
        return path
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    for key in ("jog_server", "/jog_server"):
        if key in data:
            data = {ns + "/jog_server": data[key]}
            break
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", prefix="jog_server_", delete=False) as f:
        yaml.safe_dump(data, f)
    return f.name


def state_publisher(arg, urdf, ns):
    """robot_state_publisher with the arm's URDF, on ns/joint_states."""
    if arg("description").strip().lower() not in ("true", "1", "yes", "on"):
        return LogInfo(msg="description:=false: robot_state_publisher not started")
    try:
        get_package_share_directory("robot_state_publisher")
    except PackageNotFoundError:
        return LogInfo(msg="robot_state_publisher is not installed: the arm's model is not published on tf")
    return Node(
        package="robot_state_publisher",
        executable="robot_state_publisher",
        name="robot_state_publisher",
        namespace=ns,
        output="screen",
        # value_type=str: the XML is a string, not YAML to be parsed.
        parameters=[{"robot_description": ParameterValue(urdf, value_type=str),
                     "frame_prefix": arg("frame_prefix")}],
    )


DEFAULT_URDF = [None]
DEFAULT_TRAJECTORY = "/joint_trajectory_controller/joint_trajectory"


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    DEFAULT_URDF[0] = os.path.join(share, "launch", "urdf", "ur5_like.urdf")
    return LaunchDescription(console.arguments() + diagnostics.arguments() + [
        DeclareLaunchArgument("sim", default_value="false",
                              description="also start the simulated arm (arm_sim)"),
        DeclareLaunchArgument("urdf", default_value=DEFAULT_URDF[0],
                              description="URDF file of the arm (becomes robot_description)"),
        DeclareLaunchArgument("fixed_frame", default_value="base_link",
                              description="robot base link: the root of the jogged chain"),
        DeclareLaunchArgument("flange_frame", default_value="tool0",
                              description="tool link: the tip of the jogged chain"),
        DeclareLaunchArgument("trajectory_topic", default_value=DEFAULT_TRAJECTORY,
                              description="topic of the joint targets (trajectory controller command; "
                                          "the default is put under namespace)"),
        DeclareLaunchArgument("stamp_trajectories", default_value="auto",
                              description="stamp the joint targets with the cycle's time (true, false; "
                                          "auto: true with sim, else the parameters file's, default false)"),
        DeclareLaunchArgument("params_file", default_value=os.path.join(share, "params", "jog_server.yaml"),
                              description="parameters of jog_server"),
        DeclareLaunchArgument("namespace", default_value="",
                              description="namespace of the nodes and of jog_server's services and topics "
                                          "(e.g. /arm1; empty: drag&bot's absolute names)"),
        DeclareLaunchArgument("description", default_value="true",
                              description="start robot_state_publisher with the URDF (where it is installed)"),
        DeclareLaunchArgument("frame_prefix", default_value="",
                              description="prefix of robot_state_publisher's frames, e.g. arm1/"),
        OpaqueFunction(function=nodes),
        description.rviz_argument(),
        description.rviz("arm.rviz", fixed_frame=LaunchConfiguration("fixed_frame")),
        console.include(jog="true", jog_urdf=LaunchConfiguration("urdf"),
                        jog_base_link=LaunchConfiguration("fixed_frame"),
                        jog_tip_link=LaunchConfiguration("flange_frame"),
                        jog_params_file=LaunchConfiguration("params_file"),
                        jog_namespace=LaunchConfiguration("namespace")),
        diagnostics.aggregator(),
    ])
