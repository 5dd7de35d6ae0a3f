"""What the robot launch files share: the description, namespace and
frame_prefix arguments and robot_state_publisher, and the rviz argument
with RViz2 on the robot's configuration (not a launch file itself;
servosila.launch.py, furbot.launch.py, cameras.launch.py and jog.launch.py
import it from their own directory).
"""
import os
import tempfile

import yaml

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
            "use_sim_time": LaunchConfiguration("use_sim_time", default="false"),
        }],
    )]


def state_publisher():
    """robot_state_publisher with the urdf argument's description, with
    description:=true and where the package is installed; a plain message
    otherwise."""
    return OpaqueFunction(function=_state_publisher)


def rviz_argument():
    """The rviz launch argument (default false)."""
    return DeclareLaunchArgument("rviz", default_value="false",
                                 description="also start RViz2 with the robot's configuration "
                                             "(share/telebridge/rviz/; where rviz2 is installed)")


# What the configurations name, as pkg/vizconfig writes them.
_FIXED = "<Fixed Frame>"
_ROBOT_MODEL = "rviz_default_plugins/RobotModel"
_TOPIC_KEYS = ("Topic", "Description Topic")


def _namespaced(doc, namespace, prefix):
    """Puts an RViz configuration's topics under namespace and its frames
    under prefix: the fixed frame, the view's target frame and the robot
    model's TF Prefix (RViz joins it to a link name with a '/')."""
    manager = doc["Visualization Manager"]
    options = manager["Global Options"]
    options["Fixed Frame"] = prefix + options["Fixed Frame"]
    view = manager.get("Views", {}).get("Current", {})
    if view.get("Target Frame", _FIXED) != _FIXED:
        view["Target Frame"] = prefix + view["Target Frame"]
    for display in manager["Displays"]:
        if display.get("Class") == _ROBOT_MODEL:
            display["TF Prefix"] = prefix.rstrip("/")
        for key in _TOPIC_KEYS:
            topic = display.get(key)
            if namespace and isinstance(topic, dict) and str(topic.get("Value", "")).startswith("/"):
                topic["Value"] = "/" + namespace + topic["Value"]
    return doc


def _rviz(context, config, fixed_frame):
    if not is_true(context, "rviz"):
        return []
    try:
        get_package_share_directory("rviz2")
    except PackageNotFoundError:
        return [LogInfo(msg="rviz:=true but rviz2 is not installed (apt install ros-humble-rviz2): RViz is not "
                            "started; open share/telebridge/rviz/" + config + " where it is")]
    path = os.path.join(get_package_share_directory("telebridge"), "rviz", config)
    configs = context.launch_configurations
    namespace = configs.get("namespace", "").strip("/")
    prefix = configs.get("frame_prefix", "")
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    fixed = (fixed_frame.perform(context) if fixed_frame is not None
             else doc["Visualization Manager"]["Global Options"]["Fixed Frame"])
    actions = []
    if namespace or prefix:
        # The topics and the robot model's TF Prefix are the file's (no
        # command-line option sets a display's properties): a copy for
        # this namespace and prefix.
        if prefix and not prefix.endswith("/"):
            actions.append(LogInfo(msg=f"frame_prefix {prefix!r} does not end in '/': RViz's robot model "
                                       "joins its TF Prefix to the link names with a '/' and will not find them"))
        fd, path = tempfile.mkstemp(prefix="telebridge-" + (namespace or "robot") + "-", suffix=".rviz")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            yaml.safe_dump(_namespaced(doc, namespace, prefix), f, sort_keys=False)
    return actions + [Node(
        package="rviz2",
        executable="rviz2",
        name="rviz2",
        namespace=namespace,
        output="screen",
        arguments=["-d", path, "-f", prefix + fixed],
        parameters=[{"use_sim_time": LaunchConfiguration("use_sim_time", default="false")}],
    )]


def rviz(config, fixed_frame=None):
    """RViz2 on share/telebridge/rviz/<config> with rviz:=true, where rviz2
    is installed (a message otherwise): its topics under the namespace
    argument, its frames under frame_prefix (where the launch file declares
    them), the fixed frame the file's or the substitution fixed_frame."""
    return OpaqueFunction(function=lambda context: _rviz(context, config, fixed_frame))
