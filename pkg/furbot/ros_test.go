package furbot

import "testing"

func TestTopicsTable(t *testing.T) {
	seen := map[string]bool{}
	var cmdVel, odom bool
	for _, tp := range Topics {
		if seen[tp.Name] || tp.Type == "" || tp.QoS.Validate() != nil {
			t.Errorf("topic %+v duplicated or incomplete", tp)
		}
		seen[tp.Name] = true
		cmdVel = cmdVel || tp.Name == "cmd_vel" && !tp.Publish && tp.Type == "geometry_msgs/msg/Twist"
		odom = odom || tp.Name == "odom" && tp.Publish && tp.Type == "nav_msgs/msg/Odometry"
	}
	if !cmdVel || !odom {
		t.Errorf("Nav2 needs cmd_vel subscribed (%v) and odom published (%v)", cmdVel, odom)
	}
	if len(TF) != 1 || TF[0] != [2]string{"odom", "base_link"} {
		t.Errorf("TF %v", TF)
	}
}
