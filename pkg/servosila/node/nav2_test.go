package node_test

import (
	"testing"

	"github.com/telebridge/telebridge/internal/testkit/nav2test"
	"github.com/telebridge/telebridge/pkg/servosila/node"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// params/nav2_servosila.yaml against the driver's defaults: Nav2 never
// asks for more than the driver passes, nor (while driving) for less than
// the minimum start velocity, and the goal tolerances cover what the robot
// runs on after the last command.
func TestNav2Configuration(t *testing.T) {
	f := nav2test.MustLoad(t, "nav2_servosila.yaml")
	num := func(key string) float64 { return f.MustNumber(t, key) }
	const cs, fp, gc = "controller_server/ros__parameters/", "controller_server/ros__parameters/FollowPath/", "controller_server/ros__parameters/general_goal_checker/"
	node := node.DefaultConfig()
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

// Nav2's slow approach to a goal, as Regulated Pure Pursuit (Humble)
// computes it over the last approach_velocity_scaling_dist — v = max(
// desired * remaining / scaling_dist, min_approach_linear_velocity) —
// passes through the driver unchanged with this configuration: what Nav2
// plans with is what the robot drives. With Nav2's default minimum
// (0.05 m/s) the driver would raise the approach to 0.2 m/s.
func TestNav2ApproachPassesThroughDriver(t *testing.T) {
	f := nav2test.MustLoad(t, "nav2_servosila.yaml")
	const fp = "controller_server/ros__parameters/FollowPath/"
	desired := f.MustNumber(t, fp+"desired_linear_vel")
	dist := f.MustNumber(t, fp+"approach_velocity_scaling_dist")
	cfg := node.DefaultConfig().Driver
	quantum := 1 / cfg.Calibration.Linear // one protocol unit [m/s]
	// raised returns the largest difference between what RPP asks for and
	// what the driver sends, over the approach.
	raised := func(minApproach float64) float64 {
		worst := 0.0
		for i := 1; i <= 100; i++ {
			remaining := dist * float64(i) / 100
			v := max(desired*remaining/dist, minApproach)
			cmd := wire.Command{Linear: v}
			ch := cfg.Convert(&cmd)
			sent := cfg.Calibration.Velocities(&ch).Linear
			worst = max(worst, sent-v)
		}
		return worst
	}
	if r := raised(f.MustNumber(t, fp+"min_approach_linear_velocity")); r > quantum {
		t.Errorf("the driver raises the configured approach by up to %.3f m/s", r)
	}
	if r := raised(0.05); r < 0.1 {
		t.Errorf("with Nav2's default minimum 0.05 m/s the driver raised the approach by only %.3f m/s: the test no longer shows what the configuration avoids", r)
	}
}
