"""twist_mux:=true for the robots' launch files: twist_mux between the
velocity sources and the robot's cmd_vel, in the robot's namespace, with
params/twist_mux.yaml (cmd_vel_teleop for the operator above cmd_vel_nav
for Nav2, the lock e_stop above both); its output is remapped to the
robot's cmd_vel. Not a launch file itself: servosila.launch.py and
furbot.launch.py import it from their own directory.
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def arguments():
    """The twist_mux and twist_mux_params launch arguments."""
    share = get_package_share_directory("telebridge")
    return [
        DeclareLaunchArgument("twist_mux", default_value="false",
                              description="start twist_mux: the robot's cmd_vel comes from cmd_vel_teleop "
                                          "(the operator, console:=true publishes there) over cmd_vel_nav (Nav2); "
                                          "the lock e_stop (std_msgs/Bool) mutes both"),
        DeclareLaunchArgument("twist_mux_params", default_value=os.path.join(share, "params", "twist_mux.yaml"),
                              description="twist_mux's topics and locks (with twist_mux:=true)"),
    ]


def node(namespace, use_sim_time):
    """twist_mux in namespace, started with twist_mux:=true."""
    return Node(
        package="twist_mux", executable="twist_mux", name="twist_mux", namespace=namespace,
        output="screen", emulate_tty=True,
        parameters=[LaunchConfiguration("twist_mux_params"), {"use_sim_time": use_sim_time}],
        remappings=[("cmd_vel_out", "cmd_vel")],
        condition=IfCondition(LaunchConfiguration("twist_mux")),
    )
