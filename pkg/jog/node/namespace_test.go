package node

import (
	"errors"
	"testing"
)

func TestNamesIn(t *testing.T) {
	def, err := NamesIn("")
	if err != nil {
		t.Fatal(err)
	}
	// The default keeps drag&bot's names, which its GUI and scripts call.
	if def.StartJointMove != "/remotecontrol_start_move_joints" || def.Heartbeat != "/dnb_remote_robot_control/heartbeat" ||
		def.Stop != "/remotecontrol_stop_move" || def.HeartbeatTopic != "/heartbeat" || def.JointStates != "/joint_states" {
		t.Errorf("default names %+v", def)
	}
	n, err := NamesIn("/cell_a/arm1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{n.Heartbeat, "/cell_a/arm1/dnb_remote_robot_control/heartbeat"},
		{n.SetHeartbeatTimeout, "/cell_a/arm1/dnb_remote_robot_control/set_heartbeat_timeout"},
		{n.StartJointMove, "/cell_a/arm1/remotecontrol_start_move_joints"},
		{n.StartCartesianMove, "/cell_a/arm1/remotecontrol_start_move_cartesian"},
		{n.Stop, "/cell_a/arm1/remotecontrol_stop_move"},
		{n.HeartbeatTopic, "/cell_a/arm1/heartbeat"},
		{n.JointStates, "/cell_a/arm1/joint_states"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
	for _, bad := range []string{"arm1", "/", "/arm1/", "//arm1", "/1arm", "/arm-1", "/arm 1", "/ärm"} {
		if _, err := NamesIn(bad); !errors.Is(err, ErrNamespace) {
			t.Errorf("NamesIn(%q) = %v, want ErrNamespace", bad, err)
		}
	}
}
