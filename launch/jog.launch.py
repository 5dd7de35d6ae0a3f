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
"""
import os
import sys

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import telebridge_console as console  # noqa: E402  (launch/telebridge_console.py)
import telebridge_description as description  # noqa: E402  (launch/telebridge_description.py)

# A comfortable start pose of the default arm (ur5_like), away from its
# singularities, for arm_sim.
HOME = [0.2, -1.4, 1.6, -1.8, -1.57, 0.3]


def nodes(context):
    def arg(name):
        return LaunchConfiguration(name).perform(context)

    with open(arg("urdf"), encoding="utf-8") as f:
        urdf = f.read()
    use_sim_time = arg("use_sim_time").lower() in ("true", "1")
    overrides = {
        "robot_description": urdf,
        "robot_data.fixed_frame": arg("fixed_frame"),
        "robot_data.flange_frame": arg("flange_frame"),
        "trajectory_topic": arg("trajectory_topic"),
        "use_sim_time": use_sim_time,
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
        output="screen",
        emulate_tty=True,
        parameters=[arg("params_file"), overrides],
    )
    sim_params = {
        "robot_description": urdf,
        "trajectory_topic": arg("trajectory_topic"),
        "use_sim_time": use_sim_time,
    }
    if arg("urdf") == DEFAULT_URDF[0]:
        sim_params["initial_positions"] = HOME
    sim = Node(
        package="telebridge",
        executable="arm_sim",
        name="arm_sim",
        output="screen",
        emulate_tty=True,
        parameters=[sim_params],
        condition=IfCondition(arg("sim")),
    )
    return [server, sim]


DEFAULT_URDF = [None]


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    DEFAULT_URDF[0] = os.path.join(share, "launch", "urdf", "ur5_like.urdf")
    return LaunchDescription(console.arguments() + [
        DeclareLaunchArgument("sim", default_value="false",
                              description="also start the simulated arm (arm_sim)"),
        DeclareLaunchArgument("urdf", default_value=DEFAULT_URDF[0],
                              description="URDF file of the arm (becomes robot_description)"),
        DeclareLaunchArgument("fixed_frame", default_value="base_link",
                              description="robot base link: the root of the jogged chain"),
        DeclareLaunchArgument("flange_frame", default_value="tool0",
                              description="tool link: the tip of the jogged chain"),
        DeclareLaunchArgument("trajectory_topic", default_value="/joint_trajectory_controller/joint_trajectory",
                              description="topic of the joint targets (trajectory controller command)"),
        DeclareLaunchArgument("stamp_trajectories", default_value="auto",
                              description="stamp the joint targets with the cycle's time (true, false; "
                                          "auto: true with sim, else the parameters file's, default false)"),
        DeclareLaunchArgument("params_file", default_value=os.path.join(share, "params", "jog_server.yaml"),
                              description="parameters of jog_server"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="take time from /clock"),
        OpaqueFunction(function=nodes),
        description.rviz_argument(),
        description.rviz("arm.rviz", fixed_frame=LaunchConfiguration("fixed_frame")),
        console.include(jog="true", jog_urdf=LaunchConfiguration("urdf"),
                        jog_base_link=LaunchConfiguration("fixed_frame"),
                        jog_tip_link=LaunchConfiguration("flange_frame"),
                        jog_params_file=LaunchConfiguration("params_file")),
    ])
