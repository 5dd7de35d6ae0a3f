"""Furbot stack: furbot_bridge (UDP <-> ROS), furbot_twist_control (cmd_vel
-> ControlSignals) and furbot_odometry (odom + tf), and with sim:=true the
project's simulated vehicle (furbot-sim) on loopback; robot_state_publisher
with the vehicle's description (launch/urdf/furbot.urdf; furbot_odometry
publishes its wheel and steering joints on joint_states).

    ros2 launch telebridge furbot.launch.py sim:=true
    ros2 launch telebridge furbot.launch.py vehicle_address:=192.168.1.10:18004
    ros2 launch telebridge furbot.launch.py namespace:=furbot1 frame_prefix:=furbot1/

description:=false leaves robot_state_publisher out. namespace puts every
node and its relative topics (cmd_vel, odom, joint_states, furbot/...) under
a namespace; frame_prefix is put before every frame id (odom, base_link and
the description's frames through robot_state_publisher's frame_prefix), so
that two vehicles can share one ROS graph and one tf tree. console:=true
also starts the operator console with the Furbot panel (console.launch.py;
console_listen:=HOST:PORT, default 127.0.0.1:8080). twist_mux:=true puts
twist_mux (params/twist_mux.yaml) before cmd_vel: the operator on
cmd_vel_teleop over Nav2 on cmd_vel_nav, the lock e_stop above both; the
console then publishes on cmd_vel_teleop and e_stop.
diagnostics:=true also starts diagnostic_aggregator with
params/diagnostics_analyzers.yaml (one per graph; launch/telebridge_diagnostics.py).
rviz:=true also starts RViz2 on share/telebridge/rviz/furbot.rviz (model, tf,
odometry), where rviz2 is installed.
"""
import os
import sys

from ament_index_python.packages import get_package_prefix, get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess
from launch.conditions import IfCondition, UnlessCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import telebridge_console as console  # noqa: E402  (launch/telebridge_console.py)
import telebridge_diagnostics as diagnostics  # noqa: E402  (launch/telebridge_diagnostics.py)
import telebridge_description as description  # noqa: E402  (launch/telebridge_description.py)
import telebridge_mux as mux  # noqa: E402  (launch/telebridge_mux.py)

# The protocol's ports, on loopback for the simulator (sim_vehicle_port,
# sim_bridge_port).
SIM_VEHICLE_PORT = "18004"  # the simulator listens for control frames
SIM_BRIDGE_PORT = "18003"   # the bridge listens for status frames
DESCRIPTION = "furbot.urdf"


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    sim_binary = os.path.join(get_package_prefix("telebridge"), "lib", "telebridge", "furbot-sim")
    sim = LaunchConfiguration("sim")
    use_sim_time = LaunchConfiguration("use_sim_time")
    namespace = LaunchConfiguration("namespace")
    prefix = LaunchConfiguration("frame_prefix")
    sim_vehicle = ["127.0.0.1:", LaunchConfiguration("sim_vehicle_port")]
    sim_bridge = ["127.0.0.1:", LaunchConfiguration("sim_bridge_port")]
    # The frame ids each node takes, prefixed.
    frames = {
        "furbot_bridge": {"base_frame": [prefix, "base_link"]},
        "furbot_twist_control": {},
        "furbot_odometry": {"odom_frame": [prefix, "odom"], "base_frame": [prefix, "base_link"]},
    }

    def params(node):
        return LaunchConfiguration(node + "_params")

    def bridge(condition, vehicle, listen):
        return Node(
            package="telebridge", executable="furbot_bridge", name="furbot_bridge", namespace=namespace,
            output="screen", emulate_tty=True, condition=condition,
            parameters=[params("furbot_bridge"), {"vehicle_address": vehicle, "listen": listen,
                                                  "use_sim_time": use_sim_time, **frames["furbot_bridge"]}],
        )

    def node(name):
        return Node(
            package="telebridge", executable=name, name=name, namespace=namespace,
            output="screen", emulate_tty=True,
            parameters=[params(name), {"use_sim_time": use_sim_time, **frames[name]}],
        )

    args = description.arguments(DESCRIPTION) + console.arguments() + diagnostics.arguments() + mux.arguments() + [
        DeclareLaunchArgument("sim", default_value="false",
                              description="also start the simulated vehicle on loopback and drive it"),
        DeclareLaunchArgument("vehicle_address", default_value="192.168.1.10:18004",
                              description="UDP address of the vehicle's control port (ignored with sim:=true)"),
        DeclareLaunchArgument("listen", default_value=":18003",
                              description="local UDP address for status frames (ignored with sim:=true)"),
        DeclareLaunchArgument("sim_print", default_value="200ms",
                              description="how often the simulator prints its true state (sim:=true; a Go duration)"),
        DeclareLaunchArgument("use_sim_time", default_value="false", description="take time from /clock"),
        DeclareLaunchArgument("sim_vehicle_port", default_value=SIM_VEHICLE_PORT,
                              description="UDP port of the simulated vehicle on 127.0.0.1 (with sim:=true)"),
        DeclareLaunchArgument("sim_bridge_port", default_value=SIM_BRIDGE_PORT,
                              description="UDP port the bridge takes status frames on with sim:=true"),
    ]
    for name in ("furbot_bridge", "furbot_twist_control", "furbot_odometry"):
        args.append(DeclareLaunchArgument(name + "_params", default_value=os.path.join(share, "params", name + ".yaml"),
                                          description="parameters of " + name))
    return LaunchDescription(args + [
        ExecuteProcess(cmd=[sim_binary, "--listen", sim_vehicle, "--status-to", sim_bridge,
                            ["--print=", LaunchConfiguration("sim_print")]],
                       name="furbot_sim", output="screen", condition=IfCondition(sim)),
        bridge(IfCondition(sim), sim_vehicle, sim_bridge),
        bridge(UnlessCondition(sim), LaunchConfiguration("vehicle_address"), LaunchConfiguration("listen")),
        node("furbot_twist_control"),
        node("furbot_odometry"),
        description.state_publisher(),
        description.rviz_argument(),
        description.rviz("furbot.rviz"),
        mux.node(namespace, use_sim_time),
        console.include(furbot="true", furbot_namespace=namespace, twist_mux=LaunchConfiguration("twist_mux")),
        diagnostics.aggregator(),
    ])
