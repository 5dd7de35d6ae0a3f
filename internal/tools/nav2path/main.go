// Command nav2path makes the FollowPath goals of telebridge's Nav2 checks
// (scripts/ros2-test.d/nav2.sh) and measures a drive from the simulator's
// truth; see package internal/testkit/nav2path.
//
//	nav2path goal -path arc:4:90 > goal.yaml
//	ros2 action send_goal /follow_path nav2_msgs/action/FollowPath "$(cat goal.yaml)"
//	nav2path eval -path arc:4:90 -truth sim.log -interval 0.05 -cmd-vel cmd_vel.csv
//
// goal writes the goal YAML (path in odom from the origin, yaw 0). eval
// prints name=value lines, one figure each, lengths in metres, angles in
// radians, times in seconds: samples, start_x, start_y, start_yaw,
// start_error, max_cross_track, max_cross_track_at, final_error,
// final_yaw_error, travelled, drive_time, speed_near_end and, with
// -cmd-vel (the output of `ros2 topic echo /cmd_vel
// geometry_msgs/msg/Twist --csv`), cmd_driving, sign_changes, min_linear,
// below_min (driving commands under -min-linear) and max_angular.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/telebridge/telebridge/internal/testkit/nav2path"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "nav2path:", err)
		}
		os.Exit(1)
	}
}

func run(args []string, out, errOut io.Writer) error {
	if len(args) == 0 || (args[0] != "goal" && args[0] != "eval") {
		fmt.Fprintln(errOut, "usage: nav2path goal|eval -path SPEC [flags] (SPEC: straight:LENGTH or arc:RADIUS:DEGREES)")
		return errors.New("want a subcommand: goal or eval")
	}
	fs := flag.NewFlagSet("nav2path "+args[0], flag.ContinueOnError)
	fs.SetOutput(errOut)
	spec := fs.String("path", "", "path: straight:LENGTH or arc:RADIUS:DEGREES (positive left) [m, deg]")
	frame := fs.String("frame", "odom", "goal: frame id of the path")
	controller := fs.String("controller", "FollowPath", "goal: controller_id")
	checker := fs.String("goal-checker", "general_goal_checker", "goal: goal_checker_id")
	truthFile := fs.String("truth", "", "eval: the simulator's printed truth (a launch log)")
	interval := fs.Float64("interval", 0.2, "eval: the simulator's print interval [s], for the drive time without time stamps")
	cmdFile := fs.String("cmd-vel", "", "eval: cmd_vel as `ros2 topic echo --csv` printed it (optional)")
	minLinear := fs.Float64("min-linear", 0.2, "eval: count driving commands below this speed [m/s]")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	sp, err := nav2path.ParseSpec(*spec)
	if err != nil {
		return err
	}
	path, err := nav2path.Generate(sp, nav2path.Pose{})
	if err != nil {
		return err
	}
	if args[0] == "goal" {
		return nav2path.GoalYAML(out, nav2path.Goal{Frame: *frame, ControllerID: *controller, GoalCheckerID: *checker}, path)
	}
	f, err := os.Open(*truthFile)
	if err != nil {
		return fmt.Errorf("truth: %w", err)
	}
	truth, err := nav2path.ParseTruth(f)
	f.Close()
	if err != nil {
		return err
	}
	r, err := nav2path.Evaluate(path, truth, *interval)
	if err != nil {
		return fmt.Errorf("%s: %w", *truthFile, err)
	}
	fmt.Fprintf(out, "samples=%d\nstart_x=%.4f\nstart_y=%.4f\nstart_yaw=%.4f\nstart_error=%.4f\n", r.Samples, r.Start.X, r.Start.Y, r.Start.Yaw, r.StartError)
	fmt.Fprintf(out, "max_cross_track=%.4f\nmax_cross_track_at=%.2f\nfinal_error=%.4f\nfinal_yaw_error=%.4f\n", r.MaxCrossTrack, r.MaxCrossTrackAt, r.FinalError, r.FinalYawError)
	fmt.Fprintf(out, "travelled=%.3f\ndrive_time=%.2f\nspeed_near_end=%.3f\n", r.Travelled, r.DriveTime, r.SpeedNearEnd)
	if *cmdFile == "" {
		return nil
	}
	c, err := os.Open(*cmdFile)
	if err != nil {
		return fmt.Errorf("cmd_vel: %w", err)
	}
	cmds, err := nav2path.ParseCmdVel(c)
	c.Close()
	if err != nil {
		return err
	}
	st := nav2path.Commands(cmds, *minLinear)
	fmt.Fprintf(out, "cmd_driving=%d\nsign_changes=%d\nmin_linear=%.3f\nbelow_min=%d\nmax_angular=%.3f\n", st.Driving, st.SignChanges, st.MinLinear, st.Below, st.MaxAngular)
	return nil
}
