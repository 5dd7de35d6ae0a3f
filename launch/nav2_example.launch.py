"""Nav2's controller on a telebridge robot: the robot's launch file (with its
simulator by default), Nav2's controller_server with the robot's Regulated
Pure Pursuit configuration (params/nav2_<robot>.yaml) and a lifecycle
manager that configures and activates it. Send it paths with Nav2's
FollowPath action (nav2_msgs/action/FollowPath on /follow_path), in the odom
frame.

    ros2 launch telebridge nav2_example.launch.py robot:=servosila
    ros2 launch telebridge nav2_example.launch.py robot:=furbot sim:=false vehicle_address:=192.168.1.10:18004

Nav2 is started only where nav2_controller and nav2_lifecycle_manager are
installed (apt install ros-humble-nav2-controller
ros-humble-nav2-lifecycle-manager ros-humble-nav2-regulated-pure-pursuit-controller);
elsewhere it says so and runs the robot alone. One robot, no namespace or
frame prefix: the parameter files name the nodes and frames plainly.
twist_mux:=true starts the robot with twist_mux and puts the controller's
cmd_vel on cmd_vel_nav, below the operator's cmd_vel_teleop.
"""
import os

from ament_index_python.packages import PackageNotFoundError, get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, IncludeLaunchDescription, LogInfo, OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

ROBOTS = ("servosila", "furbot")
NAV2_PACKAGES = ("nav2_controller", "nav2_lifecycle_manager", "nav2_regulated_pure_pursuit_controller")


def missing_packages():
    """The Nav2 packages the example needs that are not installed."""
    missing = []
    for pkg in NAV2_PACKAGES:
        try:
            get_package_share_directory(pkg)
        except PackageNotFoundError:
            missing.append(pkg)
    return missing


def bring_up(context):
    robot = LaunchConfiguration("robot").perform(context)
    if robot not in ROBOTS:
        raise RuntimeError(f"robot:={robot}: must be one of {', '.join(ROBOTS)}")
    share = get_package_share_directory("telebridge")
    use_sim_time = LaunchConfiguration("use_sim_time")
    mux = LaunchConfiguration("twist_mux").perform(context).strip().lower() in ("true", "1", "yes", "on")
    args = {"sim": LaunchConfiguration("sim"), "sim_print": LaunchConfiguration("sim_print"),
            "use_sim_time": use_sim_time, "twist_mux": "true" if mux else "false"}
    if robot == "servosila":
        args["robot_address"] = LaunchConfiguration("robot_address")
        args["sim_port"] = LaunchConfiguration("sim_port")
    else:
        args["vehicle_address"] = LaunchConfiguration("vehicle_address")
        args["sim_vehicle_port"] = LaunchConfiguration("sim_vehicle_port")
        args["sim_bridge_port"] = LaunchConfiguration("sim_bridge_port")
    actions = [IncludeLaunchDescription(
        PythonLaunchDescriptionSource(os.path.join(share, "launch", robot + ".launch.py")),
        launch_arguments=args.items(),
    )]
    missing = missing_packages()
    if missing:
        actions.append(LogInfo(msg="Nav2 is not started: not installed: " + ", ".join(missing) +
                                   ". The robot runs without it."))
        return actions
    params = LaunchConfiguration("nav2_params").perform(context) or os.path.join(share, "params", f"nav2_{robot}.yaml")
    actions += [
        Node(package="nav2_controller", executable="controller_server", name="controller_server",
             output="screen", parameters=[params, {"use_sim_time": use_sim_time}],
             remappings=[("cmd_vel", "cmd_vel_nav")] if mux else []),
        Node(package="nav2_lifecycle_manager", executable="lifecycle_manager", name="lifecycle_manager_navigation",
             output="screen", parameters=[params, {"use_sim_time": use_sim_time}]),
    ]
    return actions


def generate_launch_description():
    return LaunchDescription([
        DeclareLaunchArgument("robot", default_value="servosila", description="servosila or furbot"),
        DeclareLaunchArgument("sim", default_value="true", description="drive the robot's simulator"),
        DeclareLaunchArgument("sim_print", default_value="200ms",
                              description="how often the simulator prints its true state (sim:=true)"),
        DeclareLaunchArgument("sim_port", default_value="10000",
                              description="Servosila simulator's UDP port on 127.0.0.1 (sim:=true)"),
        DeclareLaunchArgument("sim_vehicle_port", default_value="18004",
                              description="Furbot simulator's UDP port on 127.0.0.1 (sim:=true)"),
        DeclareLaunchArgument("sim_bridge_port", default_value="18003",
                              description="UDP port the Furbot bridge takes status frames on (sim:=true)"),
        DeclareLaunchArgument("robot_address", default_value="10.42.0.1:10000",
                              description="Servosila vendor server (sim:=false)"),
        DeclareLaunchArgument("vehicle_address", default_value="192.168.1.10:18004",
                              description="Furbot control port (sim:=false)"),
        DeclareLaunchArgument("nav2_params", default_value="",
                              description="Nav2 parameters (default params/nav2_<robot>.yaml)"),
        DeclareLaunchArgument("use_sim_time", default_value="false", description="take time from /clock"),
        DeclareLaunchArgument("twist_mux", default_value="false",
                              description="the robot with twist_mux; the controller's cmd_vel on cmd_vel_nav"),
        OpaqueFunction(function=bring_up),
    ])
