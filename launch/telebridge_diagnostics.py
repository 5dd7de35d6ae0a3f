"""diagnostics:=true for the telebridge launch files: diagnostic_aggregator's
aggregator_node with params/diagnostics_analyzers.yaml, which groups the
statuses every telebridge node publishes on /diagnostics (named
"<fully qualified node>: <component>", e.g. "/f1/furbot_bridge: vehicle
link") by machine and node, in any namespace, on /diagnostics_agg (not a
launch file itself; the robots' launch files import it from their own
directory).

The aggregator reads the absolute /diagnostics and publishes the absolute
/diagnostics_agg, so one graph needs one: with several robots, give
diagnostics:=true to one launch only. Where diagnostic_aggregator is not
installed, diagnostics:=true logs that and starts nothing.
"""
import os

from ament_index_python.packages import PackageNotFoundError, get_package_prefix, get_package_share_directory
from launch.actions import DeclareLaunchArgument, LogInfo
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def arguments():
    """The diagnostics and diagnostics_analyzers launch arguments."""
    share = get_package_share_directory("telebridge")
    return [
        DeclareLaunchArgument("diagnostics", default_value="false",
                              description="also start diagnostic_aggregator (one per graph) with the telebridge "
                                          "analyzers: /diagnostics grouped on /diagnostics_agg"),
        DeclareLaunchArgument("diagnostics_analyzers",
                              default_value=os.path.join(share, "params", "diagnostics_analyzers.yaml"),
                              description="the aggregator's analyzers (diagnostics:=true)"),
    ]


def aggregator():
    """aggregator_node (node name "analyzers", the root namespace, as its
    parameters file names it), started with diagnostics:=true."""
    on = IfCondition(LaunchConfiguration("diagnostics"))
    try:
        get_package_prefix("diagnostic_aggregator")
    except PackageNotFoundError:
        return LogInfo(condition=on, msg="diagnostics:=true: diagnostic_aggregator is not installed "
                                         "(ros-humble-diagnostic-aggregator); /diagnostics is not aggregated")
    return Node(package="diagnostic_aggregator", executable="aggregator_node", output="screen", condition=on,
                parameters=[LaunchConfiguration("diagnostics_analyzers")])
