// Package nav2path makes the paths telebridge's Nav2 checks send to Nav2's
// FollowPath action and judges a drive along them from a simulator's
// truth, without ROS.
//
// A path is given by a Spec ("straight:4", "arc:4:90") and starts at a
// Pose (the robot's, normally the origin of odom with yaw 0). Generate
// returns its poses every Step metres with orientations along the path;
// GoalYAML writes the FollowPath goal in the YAML `ros2 action send_goal`
// takes. ParseTruth reads the true poses the simulators print into a
// launch log (servosila-sim's "link ..." lines, furbot-sim's "t ..."
// lines), ParseCmdVel the Twist commands `ros2 topic echo --csv` printed,
// and Evaluate measures the drive against the path: the cross-track error
// of every truth sample, the final position error, the driving time, and
// the sign changes of the yaw-rate command while driving.
//
// Units: metres, radians, seconds. Frames: the path and the truth are in
// the same frame; the checks rely on both simulators starting at the
// origin with yaw 0 and the drivers' odometry starting at 0, so that odom
// and the simulator's world coincide (Result.Start shows it).
package nav2path
