package node_test

import (
	"math"
	"testing"

	"github.com/telebridge/telebridge/internal/testkit/nav2test"
	"github.com/telebridge/telebridge/pkg/furbot/node"
)

// params/nav2_furbot.yaml against the Furbot nodes' defaults: Ackermann
// limits (no rotation in place, no reversing, the tightest turn from the
// wheelbase and the steering limit), speeds within the twist controller's,
// and an approach fast enough that the controller keeps steering.
func TestNav2Configuration(t *testing.T) {
	f := nav2test.MustLoad(t, "nav2_furbot.yaml")
	num := func(key string) float64 { return f.MustNumber(t, key) }
	const fp = "controller_server/ros__parameters/FollowPath/"
	ctl := node.DefaultTwistNodeConfig().Controller
	odom := node.DefaultOdomNodeConfig()
	rmin := ctl.Wheelbase / math.Tan(ctl.MaxSteer)
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"minimum_turning_radius = wheelbase / tan(max_steer)",
			math.Abs(num("planner_server/ros__parameters/GridBased/minimum_turning_radius")-rmin) < 1e-3},
		{"regulated_linear_scaling_min_radius >= minimum turning radius", num(fp+"regulated_linear_scaling_min_radius") >= rmin},
		{"desired_linear_vel <= max_speed", num(fp+"desired_linear_vel") <= ctl.MaxSpeed},
		{"min_approach_linear_velocity > steer_cmd_speed", num(fp+"min_approach_linear_velocity") > ctl.SteerCmdSpeed},
		{"regulated_linear_scaling_min_speed > steer_cmd_speed", num(fp+"regulated_linear_scaling_min_speed") > ctl.SteerCmdSpeed},
		{"regulated_linear_scaling_min_speed <= desired_linear_vel", num(fp+"regulated_linear_scaling_min_speed") <= num(fp+"desired_linear_vel")},
	} {
		if !c.ok {
			t.Errorf("%s: does not hold (tightest turn %.3f m)", c.name, rmin)
		}
	}
	for key, want := range map[string]bool{fp + "use_rotate_to_heading": false, fp + "allow_reversing": false} {
		if got, err := f.Bool(key); err != nil || got != want {
			t.Errorf("%s = %v (%v), want %v", key, got, err, want)
		}
	}
	for key, want := range map[string]string{
		fp + "plugin": "nav2_regulated_pure_pursuit_controller::RegulatedPurePursuitController",
		"planner_server/ros__parameters/GridBased/motion_model_for_search": "DUBIN",
		"local_costmap/local_costmap/ros__parameters/global_frame":         odom.OdomFrame,
		"local_costmap/local_costmap/ros__parameters/robot_base_frame":     odom.BaseFrame,
	} {
		if got, err := f.String(key); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", key, got, err, want)
		}
	}
	if err := f.CheckHumbleNames(); err != nil {
		t.Error(err)
	}
}
