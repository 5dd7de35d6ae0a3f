package rosconsoletest

import "testing"

// Lines as `ros2 topic echo --csv /joint_states` printed them in a run
// where arm_sim and servosila_driver shared the topic.
func TestCSVJointPosition(t *testing.T) {
	const (
		arm   = "1795502378,408929566,,shoulder_pan_joint,shoulder_lift_joint,elbow_joint,wrist_1_joint,wrist_2_joint,wrist_3_joint,0.2,-1.4,1.6,-1.8,-1.57,0.3,,"
		robot = "1795502378,438254301,,waist,shoulder,elbow,neck,flippers,gripper,-0.2965421859328063,0.0,0.0,0.0,0.0,0.0,,"
	)
	tests := []struct {
		line, joint string
		want        float64
		ok          bool
	}{
		{arm, "shoulder_pan_joint", 0.2, true},
		{arm, "wrist_3_joint", 0.3, true},
		{robot, "waist", -0.2965421859328063, true},
		{robot, "shoulder_pan_joint", 0, false},
		{"1795502378,1,,a,b,0.5", "b", 0, false}, // cut short: no position for b
		{"", "a", 0, false},
		{"garbage", "a", 0, false},
	}
	for _, tt := range tests {
		got, ok := csvJointPosition(tt.line, tt.joint)
		if ok != tt.ok || got != tt.want {
			t.Errorf("csvJointPosition(%q, %q) = %v, %v; want %v, %v", tt.line, tt.joint, got, ok, tt.want, tt.ok)
		}
	}
}
