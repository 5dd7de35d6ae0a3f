"""Servosila Engineer stack: the servosila_driver node, and with sim:=true
the project's simulated robot (servosila-sim) on loopback.

    ros2 launch telebridge servosila.launch.py sim:=true
    ros2 launch telebridge servosila.launch.py robot_address:=10.42.0.1:10000
"""
import os

from ament_index_python.packages import get_package_prefix, get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess
from launch.conditions import IfCondition, UnlessCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

SIM_ADDRESS = "127.0.0.1:10000"


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    sim_binary = os.path.join(get_package_prefix("telebridge"), "lib", "telebridge", "servosila-sim")
    sim = LaunchConfiguration("sim")
    params_file = LaunchConfiguration("params_file")

    def driver(condition, address):
        return Node(
            package="telebridge",
            executable="servosila_driver",
            name="servosila_driver",
            output="screen",
            emulate_tty=True,
            parameters=[params_file, {"robot_address": address,
                                      "use_sim_time": LaunchConfiguration("use_sim_time")}],
            condition=condition,
        )

    return LaunchDescription([
        DeclareLaunchArgument("sim", default_value="false",
                              description="also start the simulated robot and drive it"),
        DeclareLaunchArgument("robot_address", default_value="10.42.0.1:10000",
                              description="UDP address of the robot's vendor server (ignored with sim:=true)"),
        DeclareLaunchArgument("params_file", default_value=os.path.join(share, "params", "servosila_driver.yaml"),
                              description="parameters of servosila_driver"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="take time from /clock"),
        ExecuteProcess(cmd=[sim_binary, "--listen", SIM_ADDRESS, "--telemetry-rate", "5", "--print", "200ms"],
                       name="servosila_sim", output="screen", condition=IfCondition(sim)),
        driver(IfCondition(sim), SIM_ADDRESS),
        driver(UnlessCondition(sim), LaunchConfiguration("robot_address")),
    ])
