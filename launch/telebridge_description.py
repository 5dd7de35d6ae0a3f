"""What the robot launch files share: the description, namespace and
frame_prefix arguments and robot_state_publisher (not a launch file itself;
servosila.launch.py, furbot.launch.py and cameras.launch.py import it from
their own directory).
"""
import os

from ament_index_python.packages import PackageNotFoundError, get_package_share_directory
from launch.actions import DeclareLaunchArgument, LogInfo, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue


def is_true(context, name):
    """Whether the launch argument name is true, yes, on or 1."""
    return LaunchConfiguration(name).perform(context).strip().lower() in ("true", "1", "yes", "on")


def arguments(urdf_file, description_default="true"):
    """The shared launch arguments: description, urdf, namespace, frame_prefix."""
    share = get_package_share_directory("telebridge")
    return [
        DeclareLaunchArgument("description", default_value=description_default,
                              description="start robot_state_publisher with the URDF (where it is installed)"),
        DeclareLaunchArgument("urdf", default_value=os.path.join(share, "urdf", urdf_file),
                              description="the description robot_state_publisher publishes"),
        DeclareLaunchArgument("namespace", default_value="",
                              description="namespace of every node (two robots in one graph)"),
        DeclareLaunchArgument("frame_prefix", default_value="",
                              description="prefix of every frame id, e.g. robot1/ (two robots in one tf tree)"),
    ]


def _state_publisher(context):
    if not is_true(context, "description"):
        return [LogInfo(msg="description:=false: robot_state_publisher not started")]
    try:
        get_package_share_directory("robot_state_publisher")
    except PackageNotFoundError:
        return [LogInfo(msg="robot_state_publisher is not installed (apt install "
                            "ros-humble-robot-state-publisher): the robot model is not published on tf; "
                            "the other nodes run without it")]
    path = LaunchConfiguration("urdf").perform(context)
    with open(path, encoding="utf-8") as f:
        urdf = f.read()
    return [Node(
        package="robot_state_publisher",
        executable="robot_state_publisher",
        name="robot_state_publisher",
        namespace=LaunchConfiguration("namespace"),
        output="screen",
        parameters=[{
            # value_type=str: the XML is a string, not YAML to be parsed.
            "robot_description": ParameterValue(urdf, value_type=str),
            "frame_prefix": LaunchConfiguration("frame_prefix"),
            "use_sim_time": LaunchConfiguration("use_sim_time"),
        }],
    )]


def state_publisher():
    """robot_state_publisher with the urdf argument's description, with
    description:=true and where the package is installed; a plain message
    otherwise."""
    return OpaqueFunction(function=_state_publisher)
