package trajectory

import (
	"math"
	"strings"
	"testing"
	"time"
)

func armCfg() Config {
	return Config{Joints: []string{"a", "b"}, Lower: []float64{-1, -2}, Upper: []float64{1, 2}, MaxVelocity: []float64{1, 0.5}}
}

func goal2(p ...Point) *Goal { return &Goal{JointNames: []string{"a", "b"}, Points: p} }

func pt(s float64, pos ...float64) Point { return Point{Positions: pos, TimeFromStart: sec(s)} }

func TestValidate(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		g    *Goal
		cfg  func(*Config)
		code Code // Successful: accepted
		msg  string
	}{
		{"ok", goal2(pt(1, 0.5, 0.2), pt(2, 0.9, 0.5)), nil, Successful, ""},
		{"first point at zero", goal2(pt(0, 0, 0), pt(2, 0.9, 0.5)), nil, Successful, ""},
		{"no names", &Goal{Points: []Point{pt(1)}}, nil, InvalidJoints, "no joint names"},
		{"unknown joint", &Goal{JointNames: []string{"a", "x"}, Points: []Point{pt(1, 0, 0)}}, nil, InvalidJoints, `"x"`},
		{"joint twice", &Goal{JointNames: []string{"a", "a"}, Points: []Point{pt(1, 0, 0)}}, nil, InvalidJoints, "twice"},
		{"partial refused", &Goal{JointNames: []string{"b"}, Points: []Point{pt(1, 0)}}, nil, InvalidJoints, "partial"},
		{"partial allowed", &Goal{JointNames: []string{"b"}, Points: []Point{pt(1, 0)}}, func(c *Config) { c.AllowPartial = true }, Successful, ""},
		{"any order", &Goal{JointNames: []string{"b", "a"}, Points: []Point{pt(1, 1.5, 0.5)}}, nil, Successful, ""},
		{"no points", goal2(), nil, InvalidGoal, "no points"},
		{"positions short", goal2(pt(1, 0)), nil, InvalidGoal, "1 positions"},
		{"velocities short", goal2(Point{Positions: []float64{0, 0}, Velocities: []float64{0}, TimeFromStart: sec(1)}), nil, InvalidGoal, "velocities"},
		{"accelerations without velocities", goal2(Point{Positions: []float64{0, 0}, Accelerations: []float64{0, 0}, TimeFromStart: sec(1)}), nil, InvalidGoal, "without velocities"},
		{"times equal", goal2(pt(1, 0, 0), pt(1, 0.1, 0)), nil, InvalidGoal, "strictly"},
		{"times decrease", goal2(pt(2, 0, 0), pt(1, 0.1, 0)), nil, InvalidGoal, "strictly"},
		{"negative time", goal2(pt(-1, 0, 0)), nil, InvalidGoal, "before it"},
		{"NaN position", goal2(pt(1, nan, 0)), nil, InvalidGoal, "position NaN"},
		{"beyond limit", goal2(pt(1, 1.2, 0)), nil, InvalidGoal, "outside its limits"},
		{"continuous joint", goal2(pt(1, 0, 7)), func(c *Config) { c.Lower[1], c.Upper[1] = 0, 0; c.MaxVelocity = nil }, Successful, ""},
		{"point too fast", goal2(Point{Positions: []float64{0, 0}, Velocities: []float64{0, 0.6}, TimeFromStart: sec(1)}), nil, InvalidGoal, "velocity 0.6"},
		{"segment too fast", goal2(pt(1, 0, 0), pt(2, 0, 0.9)), nil, InvalidGoal, "over its velocity limit"},
		{"infinite velocity", goal2(Point{Positions: []float64{0, 0}, Velocities: []float64{math.Inf(1), 0}, TimeFromStart: sec(1)}), nil, InvalidGoal, "velocity +Inf"},
		{"tolerance of unknown joint", &Goal{JointNames: []string{"a", "b"}, Points: []Point{pt(1, 0, 0)}, GoalTolerance: []Tolerance{{Name: "z", Position: 1}}}, nil, InvalidJoints, `"z"`},
		{"NaN tolerance", &Goal{JointNames: []string{"a", "b"}, Points: []Point{pt(1, 0, 0)}, PathTolerance: []Tolerance{{Name: "a", Position: nan}}}, nil, InvalidGoal, "not finite"},
		{"old header", &Goal{JointNames: []string{"a", "b"}, Start: t0.Add(-5 * time.Second), Points: []Point{pt(1, 0, 0)}}, nil, OldHeaderTimestamp, "before now"},
		{"stamp in the past, ends ahead", &Goal{JointNames: []string{"a", "b"}, Start: t0.Add(-time.Second), Points: []Point{pt(3, 0, 0)}}, nil, Successful, ""},
		{"stamp in the future", &Goal{JointNames: []string{"a", "b"}, Start: t0.Add(time.Hour), Points: []Point{pt(1, 0, 0)}}, nil, Successful, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := armCfg()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			f := newF(t, cfg)
			e := f.Validate(tc.g, t0)
			if tc.code == Successful {
				if e != nil {
					t.Fatalf("refused: %v", e)
				}
				return
			}
			if e == nil || e.Code != tc.code || !strings.Contains(e.Msg, tc.msg) {
				t.Fatalf("got %v, want %v containing %q", e, tc.code, tc.msg)
			}
			// A refused goal leaves the follower as it was.
			if _, err := f.Start(tc.g, t0, rest(2)); err == nil || f.Status() != Idle {
				t.Fatalf("Start took a goal Validate refuses: %v, %v", err, f.Status())
			}
		})
	}
}

// A first point far from the arm is not refused (the JTC jumps to it):
// the follower starts from where the arm is.
func TestStartFarFirstPoint(t *testing.T) {
	f := newF(t, armCfg())
	if _, e := f.Start(goal2(pt(0.5, 0.9, 0)), t0, rest(2)); e != nil {
		t.Fatalf("refused: %v", e)
	}
	if p, _, _ := one(f, 0); p != 0 {
		t.Errorf("starts at %g, want 0", p)
	}
}

func TestNewConfig(t *testing.T) {
	for _, cfg := range []Config{
		{},
		{Joints: []string{"a", "a"}},
		{Joints: []string{"a"}, Lower: []float64{0}},
		{Joints: []string{"a"}, MaxVelocity: []float64{1, 2}},
		{Joints: []string{"a"}, PathTolerance: []Tolerance{{}, {}}},
		{Joints: []string{"a"}, GoalTime: -1},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

func TestCodeString(t *testing.T) {
	for c, s := range map[Code]string{Successful: "SUCCESSFUL", InvalidGoal: "INVALID_GOAL", InvalidJoints: "INVALID_JOINTS",
		OldHeaderTimestamp: "OLD_HEADER_TIMESTAMP", PathToleranceViolated: "PATH_TOLERANCE_VIOLATED", GoalToleranceViolated: "GOAL_TOLERANCE_VIOLATED"} {
		if c.String() != s {
			t.Errorf("%d: %q, want %q", c, c.String(), s)
		}
	}
	if int32(GoalToleranceViolated) != -5 || int32(InvalidGoal) != -1 {
		t.Error("codes differ from control_msgs")
	}
}
