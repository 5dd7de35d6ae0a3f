"""console:=true for the robots' launch files: console.launch.py with the
robot's panel, in the robot's namespace (not a launch file itself;
servosila.launch.py, furbot.launch.py and jog.launch.py import it from
their own directory).
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription
from launch.conditions import IfCondition
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration


def arguments():
    """The console and console_listen launch arguments."""
    return [
        DeclareLaunchArgument("console", default_value="false",
                              description="also start the operator console (console.launch.py) for this robot"),
        DeclareLaunchArgument("console_listen", default_value="127.0.0.1:8080",
                              description="HTTP address of the console (console:=true); off loopback a token is "
                                          "generated and logged"),
    ]


def include(**panel):
    """console.launch.py with every panel off except those in panel (launch
    argument name -> value or substitution), started with console:=true.
    The console's own parameters file is named, so that a params_file of the
    including launch file (which an include inherits) is not taken for it."""
    share = get_package_share_directory("telebridge")
    args = {"params_file": os.path.join(share, "params", "operator_console.yaml"),
            "listen": LaunchConfiguration("console_listen"),
            "servosila": "false", "furbot": "false", "jog": "false"}
    args.update(panel)
    return IncludeLaunchDescription(
        PythonLaunchDescriptionSource(os.path.join(share, "launch", "console.launch.py")),
        launch_arguments=args.items(),
        condition=IfCondition(LaunchConfiguration("console")),
    )
