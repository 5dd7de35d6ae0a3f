"""The robot's cameras: one camera_publisher node for the four cameras of
params/camera_publisher.yaml (front_left, front_right, rear, zoom).

    ros2 launch telebridge cameras.launch.py            # /dev/video0..3
    ros2 launch telebridge cameras.launch.py sim:=true  # synthetic test frames

With sim:=true every camera's device is replaced by the synthetic TEST
source (device "pattern:<camera>", pkg/camera): frames of the configured
format, size and rate generated in memory, published through the same code
as a real camera. It is for testing the ROS side without cameras; it says
nothing about the real devices.
"""
import os

import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

NODE = "camera_publisher"


def camera_names(params_file):
    """The cameras parameter of the node in a parameters file."""
    with open(params_file, encoding="utf-8") as f:
        doc = yaml.safe_load(f) or {}
    for key, value in doc.items():
        if key.strip("/") in (NODE, "**") and isinstance(value, dict):
            names = (value.get("ros__parameters") or {}).get("cameras")
            if names:
                return list(names)
    raise RuntimeError(f"{params_file}: no {NODE}.ros__parameters.cameras")


def publisher(context):
    params_file = LaunchConfiguration("params_file").perform(context)
    sim = LaunchConfiguration("sim").perform(context).lower() in ("true", "1", "yes")
    overrides = {"use_sim_time": LaunchConfiguration("use_sim_time")}
    if sim:
        for name in camera_names(params_file):
            overrides[f"{name}.device"] = f"pattern:{name}"
            overrides[f"{name}.camera_info_url"] = ""
    return [Node(
        package="telebridge",
        executable=NODE,
        name=NODE,
        output="screen",
        emulate_tty=True,
        parameters=[params_file, overrides],
    )]


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    return LaunchDescription([
        DeclareLaunchArgument("sim", default_value="false",
                              description="use the synthetic test source instead of /dev/video* (no calibration)"),
        DeclareLaunchArgument("params_file", default_value=os.path.join(share, "params", "camera_publisher.yaml"),
                              description="parameters of camera_publisher (the cameras and their settings)"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="take node time from /clock (image stamps stay the capture times)"),
        OpaqueFunction(function=publisher),
    ])
