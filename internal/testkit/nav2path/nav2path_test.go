package nav2path

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Spec
		err  bool
	}{
		{in: "straight:4", want: Spec{Kind: "straight", Length: 4}},
		{in: "arc:4:90", want: Spec{Kind: "arc", Radius: 4, Angle: math.Pi / 2}},
		{in: "arc:3.262:-90", want: Spec{Kind: "arc", Radius: 3.262, Angle: -math.Pi / 2}},
		{in: "straight:0", err: true},
		{in: "straight:-1", err: true},
		{in: "straight:NaN", err: true},
		{in: "straight:4:1", err: true},
		{in: "arc:4", err: true},
		{in: "arc:0:90", err: true},
		{in: "arc:4:0", err: true},
		{in: "arc:4:400", err: true},
		{in: "arc:4:x", err: true},
		{in: "circle:4", err: true},
		{in: "", err: true},
	} {
		got, err := ParseSpec(c.in)
		if c.err {
			if !errors.Is(err, ErrSpec) {
				t.Errorf("ParseSpec(%q) = %+v, %v; want ErrSpec", c.in, got, err)
			}
			continue
		}
		if err != nil || got.Kind != c.want.Kind || got.Length != c.want.Length || got.Radius != c.want.Radius ||
			!near(got.Angle, c.want.Angle, 1e-12) {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
}

func TestGenerate(t *testing.T) {
	for _, c := range []struct {
		spec  string
		start Pose
		n     int  // poses
		end   Pose // last pose
	}{
		{"straight:4", Pose{}, 81, Pose{X: 4}},
		{"straight:0.12", Pose{}, 4, Pose{X: 0.12}},
		{"straight:2", Pose{X: 1, Y: 2, Yaw: math.Pi / 2}, 41, Pose{X: 1, Y: 4, Yaw: math.Pi / 2}},
		{"arc:4:90", Pose{}, 127, Pose{X: 4, Y: 4, Yaw: math.Pi / 2}},
		{"arc:4:-90", Pose{}, 127, Pose{X: 4, Y: -4, Yaw: -math.Pi / 2}},
		{"arc:3.262:90", Pose{}, 104, Pose{X: 3.262, Y: 3.262, Yaw: math.Pi / 2}},
		{"arc:1:90", Pose{X: 1, Yaw: math.Pi / 2}, 33, Pose{X: 0, Y: 1, Yaw: math.Pi}},
	} {
		sp, err := ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		poses, err := Generate(sp, c.start)
		if err != nil {
			t.Fatal(err)
		}
		last := poses[len(poses)-1]
		if len(poses) != c.n || poses[0] != c.start || !near(last.X, c.end.X, 1e-9) || !near(last.Y, c.end.Y, 1e-9) ||
			!near(math.Abs(wrap(last.Yaw-c.end.Yaw)), 0, 1e-9) {
			t.Errorf("%s from %+v: %d poses, last %+v; want %d, %+v", c.spec, c.start, len(poses), last, c.n, c.end)
		}
		// Spacing Step (the last may be shorter), orientation along the
		// path (the chord's direction within half the step's turn), and
		// every pose on the path.
		for i := 1; i < len(poses); i++ {
			a, b := poses[i-1], poses[i]
			d := math.Hypot(b.X-a.X, b.Y-a.Y)
			if d > Step+1e-9 || (i < len(poses)-1 && !near(d, Step, 1e-3)) {
				t.Errorf("%s: step %d is %g m", c.spec, i, d)
			}
			chord := math.Atan2(b.Y-a.Y, b.X-a.X)
			if e := math.Abs(wrap(chord - (a.Yaw+b.Yaw)/2)); e > 1e-6 && math.Abs(wrap(b.Yaw-a.Yaw)) < 1 {
				t.Errorf("%s: pose %d heading %g, chord %g", c.spec, i, b.Yaw, chord)
			}
		}
	}
}

func TestGoalYAMLGolden(t *testing.T) {
	g := Goal{Frame: "odom", ControllerID: "FollowPath", GoalCheckerID: "general_goal_checker"}
	for _, c := range []struct{ spec, file string }{
		{"straight:0.1", "goal_straight.yaml"},
		{"arc:0.1:90", "goal_arc.yaml"},
	} {
		sp, err := ParseSpec(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		poses, err := Generate(sp, Pose{})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := GoalYAML(&b, g, poses); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", c.file)
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("%s: got\n%s\nwant (testdata/%s)\n%s", c.spec, b.String(), c.file, want)
		}
	}
	// Without a goal checker id the field is left out.
	var b bytes.Buffer
	if err := GoalYAML(&b, Goal{Frame: "odom", ControllerID: "FollowPath"}, []Pose{{}}); err != nil ||
		!strings.HasSuffix(b.String(), "]}, controller_id: FollowPath}\n") {
		t.Errorf("no goal checker: %v\n%s", err, b.String())
	}
}

func readTruth(t *testing.T, file string) []Sample {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := ParseTruth(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseTruth(t *testing.T) {
	sv := readTruth(t, "truth_servosila.log")
	if len(sv) != 6 || sv[2].X != 1 || sv[2].Y != 0.01 || sv[2].Yaw != 0.01 || sv[2].V != 0.4 || !math.IsNaN(sv[2].T) {
		t.Errorf("servosila: %+v", sv)
	}
	fb := readTruth(t, "truth_furbot.log")
	if len(fb) != 4 || fb[2].T != 7.4 || fb[2].X != 2 || fb[2].Y != 0.05 || fb[2].Yaw != 0.1 || fb[2].V != 1 {
		t.Errorf("furbot: %+v", fb)
	}
	for _, bad := range []string{
		"link true  x +0.0.0 m  y +0.000 m  yaw +0.000 rad  v +0.000 m/s\n",
		"[servosila_sim-1] link true  x +0.000 m  y +0.000 m  v +0.000 m/s\n",
		"t    1.00 s  x    abc m  y 0 m  yaw 0 rad  v 0 m/s\n",
	} {
		if s, err := ParseTruth(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseTruth(%q) = %+v, want an error", bad, s)
		}
	}
	// Lines that only look alike are not truth.
	s, err := ParseTruth(strings.NewReader("link down\nt is for time\n[x] link up\n"))
	if err != nil || len(s) != 0 {
		t.Errorf("look-alikes: %+v, %v", s, err)
	}
}

func TestEvaluate(t *testing.T) {
	straight, _ := Generate(Spec{Kind: "straight", Length: 4}, Pose{})
	for _, c := range []struct {
		file     string
		interval float64
		want     Result
	}{
		{"truth_servosila.log", 0.2, Result{
			Samples: 6, MaxCrossTrack: 0.02, MaxCrossTrackAt: 2, Final: Pose{X: 3.98, Yaw: 0.02},
			FinalError: 0.02, FinalYawError: 0.02, DriveTime: 0.4, SpeedNearEnd: 0.2,
			Travelled: math.Hypot(1, 0.01) + math.Hypot(1, 0.03) + math.Hypot(1.95, 0.025) + math.Hypot(0.03, 0.005),
		}},
		{"truth_furbot.log", 99, Result{
			Samples: 4, MaxCrossTrack: 0.05, MaxCrossTrackAt: 2, Final: Pose{X: 3.9},
			FinalError: 0.1, DriveTime: 2.2, SpeedNearEnd: 0,
			Travelled: 0.1 + math.Hypot(1.9, 0.05) + math.Hypot(1.9, 0.05),
		}},
	} {
		got, err := Evaluate(straight, readTruth(t, c.file), c.interval)
		if err != nil {
			t.Fatal(err)
		}
		w := c.want
		if got.Samples != w.Samples || got.StartError != 0 || !near(got.MaxCrossTrack, w.MaxCrossTrack, 1e-9) ||
			!near(got.MaxCrossTrackAt, w.MaxCrossTrackAt, 1e-9) || got.Final != w.Final ||
			!near(got.FinalError, w.FinalError, 1e-9) || !near(got.FinalYawError, w.FinalYawError, 1e-9) ||
			!near(got.DriveTime, w.DriveTime, 1e-9) || !near(got.SpeedNearEnd, w.SpeedNearEnd, 1e-9) ||
			!near(got.Travelled, w.Travelled, 1e-9) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.file, got, w)
		}
	}
	if _, err := Evaluate(straight, nil, 0.2); !errors.Is(err, ErrNoSamples) {
		t.Errorf("no samples: %v", err)
	}
}

// A synthetic drive along a 90° arc of radius 4 m, offset outwards by a
// known amount in the middle: Evaluate finds that offset (the polyline's
// chords are within Step²/8R = 0.08 mm of the circle, so the largest
// distance may fall on a sample next to the one at 45°).
func TestEvaluateArcKnownCrossTrack(t *testing.T) {
	sp := Spec{Kind: "arc", Radius: 4, Angle: math.Pi / 2}
	path, _ := Generate(sp, Pose{})
	var truth []Sample
	for i := 0; i <= 100; i++ {
		th := float64(i) / 100 * math.Pi / 2
		off := 0.012 * math.Sin(2*th) // outwards, 12 mm at 45°
		r := 4 + off
		truth = append(truth, Sample{T: math.NaN(), Pose: Pose{X: r * math.Sin(th), Y: 4 - r*math.Cos(th), Yaw: th}, V: 0.4})
	}
	got, err := Evaluate(path, truth, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got.MaxCrossTrack, 0.012, 1e-4) || !near(got.MaxCrossTrackAt, 4*math.Pi/4, 0.1) ||
		!near(got.FinalError, 0, 1e-9) || !near(got.DriveTime, 5, 1e-9) || !near(got.SpeedNearEnd, 0.4, 1e-9) {
		t.Errorf("got %+v", got)
	}
}

func TestCrossTrack(t *testing.T) {
	path, _ := Generate(Spec{Kind: "straight", Length: 4}, Pose{})
	for _, c := range []struct{ x, y, dist, along float64 }{
		{2, 0.03, 0.03, 2},
		{2, -0.03, 0.03, 2},
		{4.2, 0.01, 0.01, 4.2},   // past the end: along the end tangent
		{-0.1, 0.02, 0.02, -0.1}, // behind the start
		{0, 0, 0, 0},
	} {
		d, at := CrossTrack(path, c.x, c.y)
		if !near(d, c.dist, 1e-9) || !near(at, c.along, 1e-9) {
			t.Errorf("(%g, %g): %g at %g, want %g at %g", c.x, c.y, d, at, c.dist, c.along)
		}
	}
	if d, _ := CrossTrack([]Pose{{X: 1}}, 1, 1); d != 1 {
		t.Errorf("one-pose path: %g", d)
	}
}

func TestCommands(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "cmd_vel.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmds, err := ParseCmdVel(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 10 || cmds[5] != (Command{Linear: 0.2, Angular: -0.2}) {
		t.Fatalf("parsed %+v", cmds)
	}
	got := Commands(cmds, 0.2)
	want := CommandStats{Driving: 7, SignChanges: 2, MinLinear: 0.15, Below: 1, MaxAngular: 0.2}
	if got != want {
		t.Errorf("Commands = %+v, want %+v", got, want)
	}
	for _, c := range []struct {
		name string
		cmds []Command
		want int
	}{
		{"steady arc", []Command{{0.4, 0.1}, {0.4, 0.11}, {0.4, 0.09}}, 0},
		{"weave", []Command{{0.4, 0.2}, {0.4, -0.2}, {0.4, 0.2}, {0.4, -0.2}}, 3},
		{"noise on a straight", []Command{{0.4, 0.001}, {0.4, -0.002}, {0.4, 0.009}}, 0},
		{"turning in place is not driving", []Command{{0.4, 0.1}, {0, -0.5}, {0.4, 0.1}}, 0},
		{"none", nil, 0},
	} {
		if got := Commands(c.cmds, 0.2).SignChanges; got != c.want {
			t.Errorf("%s: %d sign changes, want %d", c.name, got, c.want)
		}
	}
	for _, bad := range []string{"0.1,0.2\n", "a,0,0,0,0,0\n", "0,0,0,0,0,NaN\n", "linear:\n"} {
		if c, err := ParseCmdVel(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseCmdVel(%q) = %+v, want an error", bad, c)
		}
	}
}
