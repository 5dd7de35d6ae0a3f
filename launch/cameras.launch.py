"""The robot's cameras: one camera_publisher node for the four cameras of
params/camera_publisher.yaml (front_left, front_right, rear, zoom).

    ros2 launch telebridge cameras.launch.py            # /dev/video0..3
    ros2 launch telebridge cameras.launch.py sim:=true  # synthetic test frames
    ros2 launch telebridge cameras.launch.py namespace:=robot1 frame_prefix:=robot1/

Each camera's frame_id (params file) is an optical frame of the Servosila
Engineer's description (launch/urdf/servosila_engineer.urdf: z along the
lens, x right, y down); frame_prefix is put before it, as servosila.launch.py
does for the robot's other frames. servosila.launch.py already publishes the
description; description:=true here starts robot_state_publisher with it for
the cameras alone (their fixed frames; the arm's joints need the driver's
joint_states).

With sim:=true every camera's device is replaced by the synthetic TEST
source (device "pattern:<camera>", pkg/camera): frames of the configured
format, size and rate generated in memory, published through the same code
as a real camera. It is for testing the ROS side without cameras; it says
nothing about the real devices.
diagnostics:=true also starts diagnostic_aggregator with
params/diagnostics_analyzers.yaml (one per graph; launch/telebridge_diagnostics.py).
"""
import os
import sys

import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import telebridge_description as description  # noqa: E402  (launch/telebridge_description.py)
import telebridge_diagnostics as diagnostics  # noqa: E402  (launch/telebridge_diagnostics.py)

NODE = "camera_publisher"
DESCRIPTION = "servosila_engineer.urdf"


def node_parameters(params_file):
    """The node's ros__parameters in a parameters file."""
    with open(params_file, encoding="utf-8") as f:
        doc = yaml.safe_load(f) or {}
    for key, value in doc.items():
        if key.strip("/") in (NODE, "**") and isinstance(value, dict):
            params = value.get("ros__parameters") or {}
            if params.get("cameras"):
                return params
    raise RuntimeError(f"{params_file}: no {NODE}.ros__parameters.cameras")


def camera_names(params_file):
    """The cameras parameter of the node in a parameters file."""
    return list(node_parameters(params_file)["cameras"])


def publisher(context):
    params_file = LaunchConfiguration("params_file").perform(context)
    sim = LaunchConfiguration("sim").perform(context).lower() in ("true", "1", "yes")
    overrides = {"use_sim_time": LaunchConfiguration("use_sim_time")}
    prefix = LaunchConfiguration("frame_prefix").perform(context)
    if prefix:
        params = node_parameters(params_file)
        for name in camera_names(params_file):
            # The node's default frame id is <camera>_optical_frame (pkg/camera).
            frame = (params.get(name) or {}).get("frame_id") or name + "_optical_frame"
            overrides[f"{name}.frame_id"] = prefix + frame
    if sim:
        for name in camera_names(params_file):
            overrides[f"{name}.device"] = f"pattern:{name}"
            overrides[f"{name}.camera_info_url"] = ""
    return [Node(
        package="telebridge",
        executable=NODE,
        name=NODE,
        namespace=LaunchConfiguration("namespace"),
        output="screen",
        emulate_tty=True,
        parameters=[params_file, overrides],
    )]


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    return LaunchDescription(description.arguments(DESCRIPTION, description_default="false") + diagnostics.arguments() + [
        DeclareLaunchArgument("sim", default_value="false",
                              description="use the synthetic test source instead of /dev/video* (no calibration)"),
        DeclareLaunchArgument("params_file", default_value=os.path.join(share, "params", "camera_publisher.yaml"),
                              description="parameters of camera_publisher (the cameras and their settings)"),
        DeclareLaunchArgument("use_sim_time", default_value="false",
                              description="take node time from /clock (image stamps stay the capture times)"),
        OpaqueFunction(function=publisher),
        description.state_publisher(),
        diagnostics.aggregator(),
    ])
