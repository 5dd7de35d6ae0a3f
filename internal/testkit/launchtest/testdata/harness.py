"""Evaluates a telebridge launch file without ROS 2: stand-ins for the parts
of launch, launch_ros and ament_index_python the launch files use record
what they are given; the harness then walks the launch description as
ros2 launch would (arguments with their defaults and overrides, conditions,
OpaqueFunctions, included launch files, substitutions) and prints the nodes,
processes and log messages it would start, as JSON.

    python3 harness.py REPO INSTALLED LAUNCH_FILE [name:=value ...]

INSTALLED is a comma-separated list of the ROS packages that count as
installed besides telebridge. The telebridge share directory is laid out as
CMakeLists.txt installs it (launch/, params/, urdf/ from launch/urdf/,
rviz/, foxglove/).
It checks what the launch files decide, not ROS 2 itself: a stand-in
accepts what the real class would, as far as the launch files use it.
"""
import atexit
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import types

sys.dont_write_bytecode = True  # nothing written into the repository's launch/

REPO, INSTALLED, LAUNCH_FILE = sys.argv[1], set(filter(None, sys.argv[2].split(","))), sys.argv[3]
CLI = dict(a.split(":=", 1) for a in sys.argv[4:])

# The install layout of the telebridge package.
PREFIX = tempfile.mkdtemp(prefix="telebridge-launchtest-")
atexit.register(shutil.rmtree, PREFIX)
SHARE = os.path.join(PREFIX, "share", "telebridge")
os.makedirs(SHARE)
os.symlink(os.path.join(REPO, "launch"), os.path.join(SHARE, "launch"))
os.symlink(os.path.join(REPO, "params"), os.path.join(SHARE, "params"))
os.symlink(os.path.join(REPO, "launch", "urdf"), os.path.join(SHARE, "urdf"))
os.symlink(os.path.join(REPO, "rviz"), os.path.join(SHARE, "rviz"))
os.symlink(os.path.join(REPO, "foxglove"), os.path.join(SHARE, "foxglove"))


def module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


class PackageNotFoundError(KeyError):
    pass


def get_package_share_directory(pkg):
    if pkg == "telebridge":
        return SHARE
    if pkg in INSTALLED:
        return os.path.join("/opt/ros/humble/share", pkg)
    raise PackageNotFoundError(pkg)


def get_package_prefix(pkg):
    get_package_share_directory(pkg)
    return PREFIX if pkg == "telebridge" else "/opt/ros/humble"


class Recorded:
    """Records its constructor's arguments."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


class Context:
    def __init__(self, configs):
        self.launch_configurations = configs


class LaunchConfiguration:
    def __init__(self, name, default=None):
        self.name, self.default = name, default

    def perform(self, context):
        if self.default is not None and self.name not in context.launch_configurations:
            return self.default
        return context.launch_configurations[self.name]


class TextSubstitution:
    def __init__(self, text):
        self.text = text

    def perform(self, context):
        return self.text


class Condition:
    def __init__(self, expr):
        self.expr = expr

    def truth(self, context):
        v = evaluate(self.expr, context).strip().lower()
        if v not in ("true", "false", "1", "0"):
            raise ValueError(f"condition value {v!r} is not a boolean")
        return v in ("true", "1")


class IfCondition(Condition):
    def evaluate(self, context):
        return self.truth(context)


class UnlessCondition(Condition):
    def evaluate(self, context):
        return not self.truth(context)


class DeclareLaunchArgument(Recorded):
    def __init__(self, name, default_value=None, description=""):
        super().__init__(name)
        self.name, self.default_value, self.description = name, default_value, description


class OpaqueFunction(Recorded):
    def __init__(self, function):
        super().__init__()
        self.function = function


class LaunchDescription:
    def __init__(self, entities):
        self.entities = list(entities)


class ParameterValue:
    def __init__(self, value, value_type=None):
        self.value, self.value_type = value, value_type


class PythonLaunchDescriptionSource:
    def __init__(self, path):
        self.path = path


class IncludeLaunchDescription(Recorded):
    def __init__(self, source, launch_arguments=(), **kwargs):
        super().__init__(**kwargs)  # condition
        self.source, self.launch_arguments = source, list(launch_arguments)


for name, attrs in {
    "ament_index_python": {},
    "ament_index_python.packages": dict(PackageNotFoundError=PackageNotFoundError,
                                        get_package_share_directory=get_package_share_directory,
                                        get_package_prefix=get_package_prefix),
    "launch": dict(LaunchDescription=LaunchDescription),
    "launch.actions": dict(DeclareLaunchArgument=DeclareLaunchArgument, OpaqueFunction=OpaqueFunction,
                           IncludeLaunchDescription=IncludeLaunchDescription,
                           ExecuteProcess=type("ExecuteProcess", (Recorded,), {}),
                           LogInfo=type("LogInfo", (Recorded,), {})),
    "launch.conditions": dict(IfCondition=IfCondition, UnlessCondition=UnlessCondition),
    "launch.substitutions": dict(LaunchConfiguration=LaunchConfiguration, TextSubstitution=TextSubstitution),
    "launch.launch_description_sources": dict(PythonLaunchDescriptionSource=PythonLaunchDescriptionSource),
    "launch_ros": {},
    "launch_ros.actions": dict(Node=type("Node", (Recorded,), {})),
    "launch_ros.parameter_descriptions": dict(ParameterValue=ParameterValue),
}.items():
    module(name, **attrs)


def evaluate(value, context):
    """A substitution, a list of them (concatenated) or a plain value."""
    if isinstance(value, (LaunchConfiguration, TextSubstitution)):
        return value.perform(context)
    subst = (LaunchConfiguration, TextSubstitution, str)
    if (isinstance(value, (list, tuple)) and all(isinstance(v, subst) for v in value)
            and any(isinstance(v, subst[:2]) for v in value)):
        return "".join(evaluate(v, context) for v in value)
    if isinstance(value, ParameterValue):
        return evaluate(value.value, context)
    if isinstance(value, dict):
        return {k: evaluate(v, context) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [evaluate(v, context) for v in value]
    return value


out = {"nodes": [], "processes": [], "logs": [], "arguments": {}, "includes": []}


def run(path, overrides):
    spec = importlib.util.spec_from_file_location(os.path.basename(path).replace(".", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ld = mod.generate_launch_description()
    context = Context({})
    declared = [e for e in ld.entities if isinstance(e, DeclareLaunchArgument)]
    for e in declared:
        context.launch_configurations[e.name] = overrides.get(e.name, e.default_value)
        out["arguments"].setdefault(os.path.basename(path), []).append(e.name)
    unknown = set(overrides) - {e.name for e in declared}
    if unknown:
        raise SystemExit(f"{path}: arguments not declared: {sorted(unknown)}")
    walk(ld.entities, context)


def walk(entities, context):
    for e in entities:
        kind = type(e).__name__
        cond = e.kwargs.get("condition") if isinstance(e, Recorded) else None
        if cond is not None and not cond.evaluate(context):
            continue
        if kind == "DeclareLaunchArgument":
            continue
        if kind == "OpaqueFunction":
            walk(e.function(context) or [], context)
        elif kind == "IncludeLaunchDescription":
            args = {k: evaluate(v, context) for k, v in e.launch_arguments}
            out["includes"].append(os.path.basename(e.source.path))
            run(e.source.path, args)
        elif kind == "Node":
            kw = {k: evaluate(v, context) for k, v in e.kwargs.items() if k != "condition"}
            out["nodes"].append(kw)
        elif kind == "ExecuteProcess":
            out["processes"].append({k: evaluate(v, context) for k, v in e.kwargs.items() if k != "condition"})
        elif kind == "LogInfo":
            out["logs"].append(evaluate(e.kwargs.get("msg"), context))
        else:
            raise SystemExit(f"unexpected launch entity {kind}")


run(LAUNCH_FILE, CLI)
print(json.dumps(out, indent=1))
