# ros2-env.sh: source this to use ROS 2 Humble from /opt/ros/humble for
# telebridge's tests: Debian's python3 (not a pyenv shim), Cyclone DDS on
# loopback only, a test-only domain id.
_tb_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# setup.bash reads unset variables: relax nounset around it, then restore
# the caller's setting.
case $- in *u*) _tb_nounset=1 ;; *) _tb_nounset= ;; esac
set +u
# shellcheck disable=SC1091
source /opt/ros/humble/setup.bash
[ -n "$_tb_nounset" ] && set -u
unset _tb_nounset
export RMW_IMPLEMENTATION=rmw_cyclonedds_cpp
export ROS_LOCALHOST_ONLY=1
export ROS_DOMAIN_ID=${TELEBRIDGE_TEST_DOMAIN_ID:-142}
export CYCLONEDDS_URI="file://$_tb_dir/cyclonedds-loopback.xml"
unset _tb_dir
