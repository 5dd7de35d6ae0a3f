package servosila_test

import (
	"testing"

	"github.com/telebridge/telebridge/internal/nav2test"
	"github.com/telebridge/telebridge/pkg/servosila"
)

// params/nav2_servosila.yaml against the driver's defaults: Nav2 never
// asks for more than the driver passes, nor (while driving) for less than
// the minimum start velocity, and the goal tolerances cover what the robot
// runs on after the last command.
func TestNav2Configuration(t *testing.T) {
	f := nav2test.MustLoad(t, "nav2_servosila.yaml")
	num := func(key string) float64 { return f.MustNumber(t, key) }
	const cs, fp, gc = "controller_server/ros__parameters/", "controller_server/ros__parameters/FollowPath/", "controller_server/ros__parameters/general_goal_checker/"
	node := servosila.DefaultNodeConfig()
	drv := node.Driver
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"desired_linear_vel <= max_linear", num(fp+"desired_linear_vel") <= drv.MaxLinear},
		{"desired_linear_vel >= min_start_velocity", num(fp+"desired_linear_vel") >= drv.MinStartVelocity},
		{"min_approach_linear_velocity >= min_start_velocity", num(fp+"min_approach_linear_velocity") >= drv.MinStartVelocity},
		{"regulated_linear_scaling_min_speed >= min_start_velocity", num(fp+"regulated_linear_scaling_min_speed") >= drv.MinStartVelocity},
		{"rotate_to_heading_angular_vel in [min_start_velocity, max_angular]",
			num(fp+"rotate_to_heading_angular_vel") >= drv.MinStartVelocity && num(fp+"rotate_to_heading_angular_vel") <= drv.MaxAngular},
		// What runs on after the goal checker's stop: one control period
		// and one remote-control packet period at the slowest approach.
		{"xy_goal_tolerance >= run-on at min_approach_linear_velocity",
			num(gc+"xy_goal_tolerance") >= num(fp+"min_approach_linear_velocity")*(1/num(cs+"controller_frequency")+1/drv.SendRate)},
		{"yaw_goal_tolerance >= run-on at rotate_to_heading_angular_vel",
			num(gc+"yaw_goal_tolerance") >= num(fp+"rotate_to_heading_angular_vel")*(1/num(cs+"controller_frequency")+1/drv.SendRate)},
		// Odometry is at odom_rate: the controller must not run faster.
		{"controller_frequency <= odom_rate", num(cs+"controller_frequency") <= node.OdomRate},
	} {
		if !c.ok {
			t.Errorf("%s: does not hold", c.name)
		}
	}
	for key, want := range map[string]bool{fp + "use_rotate_to_heading": true, fp + "allow_reversing": false} {
		if got, err := f.Bool(key); err != nil || got != want {
			t.Errorf("%s = %v (%v), want %v", key, got, err, want)
		}
	}
	for key, want := range map[string]string{
		fp + "plugin": "nav2_regulated_pure_pursuit_controller::RegulatedPurePursuitController",
		"local_costmap/local_costmap/ros__parameters/global_frame":     node.OdomFrame,
		"local_costmap/local_costmap/ros__parameters/robot_base_frame": node.BaseFrame,
	} {
		if got, err := f.String(key); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", key, got, err, want)
		}
	}
	if err := f.CheckHumbleNames(); err != nil {
		t.Error(err)
	}
}
