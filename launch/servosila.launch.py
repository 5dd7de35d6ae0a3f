"""Servosila Engineer stack: the servosila_driver node, robot_state_publisher
with the robot's description (launch/urdf/servosila_engineer.urdf), and with
sim:=true the project's simulated robot (servosila-sim) on loopback.

    ros2 launch telebridge servosila.launch.py sim:=true
    ros2 launch telebridge servosila.launch.py robot_address:=10.42.0.1:10000
    ros2 launch telebridge servosila.launch.py namespace:=robot1 frame_prefix:=robot1/

description:=false leaves robot_state_publisher out (the driver still
publishes joint_states). namespace puts every node and its relative topics
(cmd_vel, odom, joint_states, ...) under a namespace; frame_prefix is put
before every frame id (odom, base_link and the description's frames through
robot_state_publisher's frame_prefix), so that two robots can share one
ROS graph and one tf tree. Use the same values for cameras.launch.py.
console:=true also starts the operator console with the Servosila panel
(console.launch.py; console_listen:=HOST:PORT, default 127.0.0.1:8080).
diagnostics:=true also starts diagnostic_aggregator with
params/diagnostics_analyzers.yaml (one per graph; launch/telebridge_diagnostics.py).
twist_mux:=true puts twist_mux (params/twist_mux.yaml) before cmd_vel:
the operator on cmd_vel_teleop over Nav2 on cmd_vel_nav, the lock e_stop
above both; the console then publishes on cmd_vel_teleop and e_stop.
rviz:=true also starts RViz2 on share/telebridge/rviz/servosila.rviz
(model, tf, odometry, the cameras of cameras.launch.py), where rviz2 is
installed.
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

SIM_PORT = "10000"  # the simulator's UDP port on loopback (sim_port)
DESCRIPTION = "servosila_engineer.urdf"


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    sim_binary = os.path.join(get_package_prefix("telebridge"), "lib", "telebridge", "servosila-sim")
    sim = LaunchConfiguration("sim")
    params_file = LaunchConfiguration("params_file")
    prefix = LaunchConfiguration("frame_prefix")
    sim_address = ["127.0.0.1:", LaunchConfiguration("sim_port")]

    def driver(condition, address):
        return Node(
            package="telebridge",
            executable="servosila_driver",
            name="servosila_driver",
            namespace=LaunchConfiguration("namespace"),
            output="screen",
            emulate_tty=True,
            parameters=[params_file, {"robot_address": address,
                                      "odom_frame": [prefix, "odom"],
                                      "base_frame": [prefix, "base_link"],
                                      "use_sim_time": LaunchConfiguration("use_sim_time")}],
            condition=condition,
        )

    return LaunchDescription(description.arguments(DESCRIPTION) + console.arguments() + diagnostics.arguments() + mux.arguments() + [
        DeclareLaunchArgument("sim", default_value="false",
                              description="also start the simulated robot and drive it"),
        DeclareLaunchArgument("robot_address", default_value="10.42.0.1:10000",
                              description="UDP address of the robot's vendor server (ignored with sim:=true)"),
        DeclareLaunchArgument("params_file", default_value=os.path.join(share, "params", "servosila_driver.yaml"),
                              description="parameters of servosila_driver"),
        DeclareLaunchArgument("sim_print", default_value="200ms",
                              description="how often the simulator prints its true state (sim:=true; a Go duration)"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="take time from /clock"),
        DeclareLaunchArgument("sim_port", default_value=SIM_PORT,
                              description="UDP port of the simulated robot on 127.0.0.1 (with sim:=true; "
                                          "another port lets two simulated robots run side by side)"),
        ExecuteProcess(cmd=[sim_binary, "--listen", sim_address, "--telemetry-rate", "5",
                            ["--print=", LaunchConfiguration("sim_print")]],
                       name="servosila_sim", output="screen", condition=IfCondition(sim)),
        driver(IfCondition(sim), sim_address),
        driver(UnlessCondition(sim), LaunchConfiguration("robot_address")),
        description.state_publisher(),
        description.rviz_argument(),
        description.rviz("servosila.rviz"),
        mux.node(LaunchConfiguration("namespace"), LaunchConfiguration("use_sim_time")),
        console.include(servosila="true", servosila_namespace=LaunchConfiguration("namespace"),
                        twist_mux=LaunchConfiguration("twist_mux")),
        diagnostics.aggregator(),
    ])
