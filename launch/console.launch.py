"""Operator console as a ROS 2 node: the browser page of pkg/console,
driving the running telebridge stacks over their topics and services.

    ros2 launch telebridge console.launch.py                       # Servosila in the root namespace
    ros2 launch telebridge console.launch.py furbot:=true servosila:=false
    ros2 launch telebridge console.launch.py furbot:=true furbot_namespace:=/furbot \
        jog:=true cameras:="[front, rear]"
    ros2 launch telebridge console.launch.py listen:=0.0.0.0:8080  # token printed in the log

The robots' sockets stay with their driver nodes. With both robots, start
them in different namespaces (the console refuses two machines on one
cmd_vel). The jog panel reads the arm's joint names and limits from the URDF
(jog_urdf; the jog stack's default arm unless given), narrowed by
joint_limits in jog_server's parameters file (jog_params_file, the jog
stack's default unless given; give the same file as to jog.launch.py), whose
joint_limits.step sets the panel's joint steps. The robots' launch files
include it with console:=true (servosila, furbot and jog, each with its own
panel and namespace); with more than one robot, start it on its own.
"""
import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def truth(s):
    return s.strip().lower() in ("true", "1", "yes")


def nodes(context):
    def arg(name):
        return LaunchConfiguration(name).perform(context)

    params = {
        "listen": arg("listen"),
        "token": arg("token"),
        "servosila": truth(arg("servosila")),
        "furbot": truth(arg("furbot")),
        "jog": truth(arg("jog")),
        "servosila_namespace": arg("servosila_namespace"),
        "furbot_namespace": arg("furbot_namespace"),
        "jog_urdf": arg("jog_urdf"),
        "jog_params_file": arg("jog_params_file"),
        # absolute, as jog.launch.py gives it to jog_server
        "jog_namespace": "/" + arg("jog_namespace").strip().strip("/") if arg("jog_namespace").strip("/ ") else "",
        "jog_base_link": arg("jog_base_link"),
        "jog_tip_link": arg("jog_tip_link"),
        "camera_namespace": arg("camera_namespace"),
        "use_sim_time": truth(arg("use_sim_time")),
        "tokens_file": arg("tokens_file"),
        "tls": truth(arg("tls")),
        "cert_file": arg("cert_file"),
        "key_file": arg("key_file"),
        "insecure": truth(arg("insecure")),
        "ice_servers": arg("ice_servers"),
        "webrtc": truth(arg("webrtc")),
        "webrtc_loopback": truth(arg("webrtc_loopback")),
        "twist_mux": truth(arg("twist_mux")),
    }
    cams = [c.strip() for c in arg("cameras").strip("[] ").split(",") if c.strip()]
    if cams:
        params["cameras"] = cams
    return [Node(
        package="telebridge",
        executable="operator_console",
        name="operator_console",
        output="screen",
        emulate_tty=True,
        parameters=[arg("params_file"), params],
    )]


def generate_launch_description():
    share = get_package_share_directory("telebridge")
    args = [
        ("params_file", os.path.join(share, "params", "operator_console.yaml"), "parameter file of the console"),
        ("listen", "127.0.0.1:8080", "HTTP address; off loopback a token is required"),
        ("token", "", "access token (empty: generated and logged off loopback)"),
        ("servosila", "true", "Servosila panel"),
        ("furbot", "false", "Furbot panel"),
        ("jog", "false", "jog panel (needs jog_urdf)"),
        ("servosila_namespace", "", "namespace of the Servosila stack"),
        ("furbot_namespace", "", "namespace of the Furbot stack"),
        ("jog_urdf", os.path.join(share, "launch", "urdf", "ur5_like.urdf"), "URDF of the jog arm"),
        ("jog_namespace", "", "jog_server's interface_namespace (jog.launch.py's namespace; empty: drag&bot's names)"),
        ("jog_base_link", "", "first link of the jog chain (empty: the URDF's root)"),
        ("jog_tip_link", "", "last link of the jog chain (empty: the end of the longest chain)"),
        ("jog_params_file", os.path.join(share, "params", "jog_server.yaml"),
         "jog_server's parameters file (joint_limits: the panel's ranges and steps)"),
        ("cameras", "", "camera names, e.g. [front, rear]"),
        ("camera_namespace", "", "namespace of camera_publisher"),
        ("use_sim_time", "false", "follow /clock"),
        ("tokens_file", "", "operators' tokens and roles (YAML, mode 0600; empty: the one token)"),
        ("tls", "false", "HTTPS with a self-signed certificate (the default off loopback)"),
        ("cert_file", "", "HTTPS with this certificate (PEM, with key_file)"),
        ("key_file", "", "key of cert_file (PEM)"),
        ("insecure", "false", "allow plain HTTP off loopback"),
        ("ice_servers", "", "STUN/TURN servers for WebRTC, comma separated (empty: host candidates only)"),
        ("webrtc", "true", "cameras as H.264 over WebRTC where the page connects (false: MJPEG only)"),
        ("webrtc_loopback", "false", "loopback ICE candidates only (a page on this machine: tests)"),
        ("twist_mux", "false", "drive through twist_mux: publish on cmd_vel_teleop and the e-stop lock e_stop "
                               "in the robots' namespaces (the robots' launch files with twist_mux:=true)"),
    ]
    return LaunchDescription(
        [DeclareLaunchArgument(n, default_value=d, description=h) for n, d, h in args]
        + [OpaqueFunction(function=nodes)])
