# ros2-env.sh: source this to use ROS 2 Humble from /opt/ros/humble for
# telebridge's tests: Debian's python3 (not a pyenv shim), Cyclone DDS on
# loopback only, a test-only domain id.
#
# TELEBRIDGE_ROS_OVERLAY (optional): a workspace installed on top of
# /opt/ros/humble (e.g. /opt/nav2, a Nav2 built from source), whose
# setup.bash is sourced after /opt/ros/humble's. Unset: ROS 2 alone (CI).
_tb_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# setup.bash reads unset variables: relax nounset around it, then restore
# the caller's setting.
case $- in *u*) _tb_nounset=1 ;; *) _tb_nounset= ;; esac
set +u
# shellcheck disable=SC1091
source /opt/ros/humble/setup.bash
if [ -n "${TELEBRIDGE_ROS_OVERLAY:-}" ]; then
	if [ ! -f "$TELEBRIDGE_ROS_OVERLAY/setup.bash" ]; then
		echo "ros2-env.sh: TELEBRIDGE_ROS_OVERLAY=$TELEBRIDGE_ROS_OVERLAY has no setup.bash" >&2
		return 1
	fi
	# shellcheck disable=SC1091
	source "$TELEBRIDGE_ROS_OVERLAY/setup.bash"
fi
[ -n "$_tb_nounset" ] && set -u
unset _tb_nounset
export RMW_IMPLEMENTATION=rmw_cyclonedds_cpp
export ROS_LOCALHOST_ONLY=1
export ROS_DOMAIN_ID=${TELEBRIDGE_TEST_DOMAIN_ID:-142}
export CYCLONEDDS_URI="file://$_tb_dir/cyclonedds-loopback.xml"
unset _tb_dir
