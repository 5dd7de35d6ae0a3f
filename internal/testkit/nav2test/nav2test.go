// Package nav2test reads the repository's Nav2 parameter files
// (params/nav2_*.yaml) for the tests that check them against the drivers'
// parameter defaults, and knows the parameter names of the Nav2 Humble
// plugins they configure, so that a misspelt name (which Nav2 ignores
// silently) fails a test.
package nav2test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Path returns the path of a file in the repository's params/.
func Path(file string) string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "..", "params", file)
}

// File is a decoded parameter file.
type File map[string]any

// asMap returns v as a map: yaml.v3 decodes nested maps into the type of
// the outer one.
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case File:
		return m, true
	}
	return nil, false
}

// Load reads and decodes the parameter file at path.
func Load(path string) (File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nav2test: load: %w", err)
	}
	var f File
	if err := yaml.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("nav2test: load %s: %w", path, err)
	}
	return f, nil
}

// MustLoad loads params/<file> or fails tb.
func MustLoad(tb testing.TB, file string) File {
	tb.Helper()
	f, err := Load(Path(file))
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

// MustNumber returns the number at key or fails tb.
func (f File) MustNumber(tb testing.TB, key string) float64 {
	tb.Helper()
	v, err := f.Number(key)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// Get returns the value at the slash-separated key path, e.g.
// "controller_server/ros__parameters/FollowPath/desired_linear_vel".
func (f File) Get(key string) (any, error) {
	var v any = map[string]any(f)
	for _, k := range strings.Split(key, "/") {
		m, ok := asMap(v)
		if !ok {
			return nil, fmt.Errorf("nav2test: %s: the parent of %q is not a map", key, k)
		}
		if v, ok = m[k]; !ok {
			return nil, fmt.Errorf("nav2test: %s: no %q", key, k)
		}
	}
	return v, nil
}

// Number returns the number at key (YAML int or float).
func (f File) Number(key string) (float64, error) {
	v, err := f.Get(key)
	if err != nil {
		return 0, err
	}
	switch x := v.(type) {
	case float64:
		return x, nil
	case int:
		return float64(x), nil
	}
	return 0, fmt.Errorf("nav2test: %s = %v is not a number", key, v)
}

// Bool returns the boolean at key.
func (f File) Bool(key string) (bool, error) {
	v, err := f.Get(key)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("nav2test: %s = %v is not a boolean", key, v)
	}
	return b, nil
}

// String returns the string at key.
func (f File) String(key string) (string, error) {
	v, err := f.Get(key)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("nav2test: %s = %v is not a string", key, v)
	}
	return s, nil
}

// Unknown returns the names under key that are not in known.
func (f File) Unknown(key string, known []string) ([]string, error) {
	v, err := f.Get(key)
	if err != nil {
		return nil, err
	}
	m, ok := asMap(v)
	if !ok {
		return nil, fmt.Errorf("nav2test: %s is not a map", key)
	}
	var out []string
	for k := range m {
		found := false
		for _, n := range known {
			found = found || n == k
		}
		if !found {
			out = append(out, k)
		}
	}
	return out, nil
}

// CheckHumbleNames fails on a parameter name of controller_server, its
// Regulated Pure Pursuit controller (FollowPath) or its goal checker
// (general_goal_checker) that Nav2 Humble does not declare: Nav2 would
// ignore it without a word.
func (f File) CheckHumbleNames() error {
	var errs []error
	for _, s := range []struct {
		key   string
		known []string
	}{
		{"controller_server/ros__parameters", ControllerServerHumble},
		{"controller_server/ros__parameters/FollowPath", RPPHumble},
		{"controller_server/ros__parameters/general_goal_checker", SimpleGoalCheckerHumble},
	} {
		unknown, err := f.Unknown(s.key, s.known)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(unknown) > 0 {
			slices.Sort(unknown)
			errs = append(errs, fmt.Errorf("nav2test: %s: not Nav2 Humble parameters: %v", s.key, unknown))
		}
	}
	return errors.Join(errs...)
}

// RPPHumble lists the parameters of Nav2 Humble's Regulated Pure Pursuit
// controller (nav2_regulated_pure_pursuit_controller, declared under the
// plugin's name), plus "plugin". Written from the Humble sources and
// documentation; compared once (by hand, not by a test) with the names
// Nav2 1.1.15's sources declare: the same set.
var RPPHumble = []string{
	"plugin",
	"desired_linear_vel", "lookahead_dist", "min_lookahead_dist", "max_lookahead_dist",
	"lookahead_time", "rotate_to_heading_angular_vel", "transform_tolerance",
	"use_velocity_scaled_lookahead_dist", "min_approach_linear_velocity",
	"approach_velocity_scaling_dist", "use_collision_detection",
	"max_allowed_time_to_collision_up_to_carrot", "use_regulated_linear_velocity_scaling",
	"use_cost_regulated_linear_velocity_scaling", "cost_scaling_dist", "cost_scaling_gain",
	"inflation_cost_scaling_factor", "regulated_linear_scaling_min_radius",
	"regulated_linear_scaling_min_speed", "use_rotate_to_heading", "rotate_to_heading_min_angle",
	"max_angular_accel", "allow_reversing", "max_robot_pose_search_dist", "use_interpolation",
}

// ControllerServerHumble lists the parameters of Nav2 Humble's
// controller_server used in the parameter files, plus the names of the
// plugin sections the files declare (each declared by Nav2 1.1.15's
// sources; odom_topic by nav_2d_utils::OdomSubscriber).
var ControllerServerHumble = []string{
	"use_sim_time", "controller_frequency", "min_x_velocity_threshold", "min_y_velocity_threshold",
	"min_theta_velocity_threshold", "failure_tolerance", "progress_checker_plugin",
	"goal_checker_plugins", "controller_plugins", "speed_limit_topic", "odom_topic",
	"progress_checker", "general_goal_checker", "FollowPath",
}

// SimpleGoalCheckerHumble lists the parameters of
// nav2_controller::SimpleGoalChecker, plus "plugin".
var SimpleGoalCheckerHumble = []string{"plugin", "xy_goal_tolerance", "yaw_goal_tolerance", "stateful"}
