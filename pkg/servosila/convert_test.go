package servosila

import (
	"errors"
	"math"
	"testing"
)

func defaults(t testing.TB) Config {
	t.Helper()
	c, err := Config{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMinStart(t *testing.T) {
	for _, c := range []struct{ v, want float64 }{
		{0, 0}, {0.1, 0.2}, {-0.1, -0.2}, {1e-9, 0.2}, {-1e-9, -0.2},
		{0.2, 0.2}, {-0.2, -0.2}, {0.35, 0.35}, {-0.35, -0.35},
	} {
		if got := MinStart(c.v, 0.2); got != c.want {
			t.Errorf("MinStart(%g) = %g, want %g", c.v, got, c.want)
		}
	}
}

// TestChassis is the chassis rule as a table: the seed's minimum for the
// cases it was measured for (pure linear, pure rotation from standstill),
// small yaw rates passing while driving, mixed small twists raised with
// their curvature, and limits that keep the curvature.
func TestChassis(t *testing.T) {
	cfg := defaults(t) // min 0.2, max 0.45 m/s, 1.3 rad/s
	off := cfg
	off.MinStartVelocity = -1
	for _, c := range []struct {
		name               string
		cfg                *Config
		v, w, wantV, wantW float64
	}{
		{"zero stays zero", &cfg, 0, 0, 0, 0},
		{"pure linear +0.1 -> +0.2", &cfg, 0.1, 0, 0.2, 0},
		{"pure linear -0.1 -> -0.2", &cfg, -0.1, 0, -0.2, 0},
		{"pure linear 1e-9 -> 0.2", &cfg, 1e-9, 0, 0.2, 0},
		{"pure linear 0.35 unchanged", &cfg, 0.35, 0, 0.35, 0},
		{"pure rotation +0.1 -> +0.2", &cfg, 0, 0.1, 0, 0.2},
		{"pure rotation -0.05 -> -0.2", &cfg, 0, -0.05, 0, -0.2},
		{"pure rotation 0.2 unchanged", &cfg, 0, 0.2, 0, 0.2},
		{"Nav2 arc: 0.45 m/s, 0.125 rad/s passes", &cfg, 0.45, 0.125, 0.45, 0.125},
		{"driving 0.2 m/s, 0.01 rad/s passes", &cfg, 0.2, 0.01, 0.2, 0.01},
		{"reversing -0.3 m/s, -0.05 rad/s passes", &cfg, -0.3, -0.05, -0.3, -0.05},
		{"turning 0.5 rad/s, 0.05 m/s passes", &cfg, 0.05, 0.5, 0.05, 0.5},
		{"mixed 0.1, 0.05 -> 0.2, 0.1 (radius 2 m)", &cfg, 0.1, 0.05, 0.2, 0.1},
		{"mixed -0.05, 0.1 -> -0.1, 0.2", &cfg, -0.05, 0.1, -0.1, 0.2},
		{"mixed equal 0.1, -0.1 -> 0.2, -0.2", &cfg, 0.1, -0.1, 0.2, -0.2},
		{"rule off: 0.1 m/s unchanged", &off, 0.1, 0.05, 0.1, 0.05},
		{"max_linear keeps curvature: 0.5, 0.25 -> 0.45, 0.225", &cfg, 0.5, 0.25, 0.45, 0.225},
		{"max_linear backwards: -0.9, 0.3 -> -0.45, 0.15", &cfg, -0.9, 0.3, -0.45, 0.15},
		{"max_angular keeps curvature: 0.2, 2.6 -> 0.1, 1.3", &cfg, 0.2, 2.6, 0.1, 1.3},
		{"both limits: 0.9, 5.2 -> 0.45*1.3/2.6, 1.3", &cfg, 0.9, 5.2, 0.225, 1.3},
		{"max_linear then in range: -1.5, -3.0 -> -0.45, -0.9", &cfg, -1.5, -3.0, -0.45, -0.9},
		{"max_angular backwards: -0.3, -2.6 -> -0.15, -1.3", &cfg, -0.3, -2.6, -0.15, -1.3},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, w := c.cfg.Chassis(c.v, c.w)
			if math.Abs(v-c.wantV) > 1e-12 || math.Abs(w-c.wantW) > 1e-12 {
				t.Fatalf("Chassis(%g, %g) = (%g, %g), want (%g, %g)", c.v, c.w, v, w, c.wantV, c.wantW)
			}
			// Curvature kept whenever something was sent.
			if c.v != 0 && v != 0 && math.Abs(w/v-c.w/c.v) > 1e-9 {
				t.Errorf("curvature %g -> %g", c.w/c.v, w/v)
			}
		})
	}
}

func TestConvert(t *testing.T) {
	cfg := defaults(t)
	for _, c := range []struct {
		name    string
		cmd     Command
		lin, an int16
		joints  [NumJoints]int16
	}{
		{"zero", Command{}, 0, 0, [NumJoints]int16{}},
		{"0.3 m/s, 0.5 rad/s", Command{Linear: 0.3, Angular: 0.5}, 21466, 12586, [NumJoints]int16{}},
		{"0.1 m/s raised to 0.2", Command{Linear: 0.1}, 14311, 0, [NumJoints]int16{}},
		{"-0.1 rad/s raised to -0.2", Command{Angular: -0.1}, 0, -5034, [NumJoints]int16{}},
		{"clamped to max 0.45 m/s", Command{Linear: 9}, 32199, 0, [NumJoints]int16{}},
		{"0.5 m/s, 0.25 rad/s limited to 0.45, 0.225", Command{Linear: 0.5, Angular: 0.25}, 32199, 5664, [NumJoints]int16{}},
		{"0.45 m/s, 0.125 rad/s passes", Command{Linear: 0.45, Angular: 0.125}, 32199, 3146, [NumJoints]int16{}},
		{"clamped to -1.3 rad/s", Command{Angular: -9}, 0, -32723, [NumJoints]int16{}},
		{"joints clamped to 0.5 rad/s", Command{Joints: [NumJoints]float64{Waist: 0.25, Elbow: -3}}, 0, 0, [NumJoints]int16{Waist: 16384, Elbow: -32767}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := cfg.Convert(&c.cmd)
			if ch.Linear != c.lin || ch.Angular != c.an || ch.Joints != c.joints {
				t.Errorf("got %+v, want linear %d angular %d joints %v", ch, c.lin, c.an, c.joints)
			}
		})
	}
}

func TestSaturate(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want int16
	}{{1, 32767}, {-1, -32767}, {-2, -32768}, {0.5, 16384}, {math.NaN(), 0}, {math.Inf(1), 32767}, {math.Inf(-1), -32768}} {
		if got := Saturate(c.v, 32767); got != c.want {
			t.Errorf("Saturate(%g) = %d, want %d", c.v, got, c.want)
		}
	}
}

func TestCommandValidate(t *testing.T) {
	for _, c := range []Command{
		{Linear: math.NaN()}, {Angular: math.Inf(1)}, {Joints: [NumJoints]float64{Gripper: math.NaN()}},
	} {
		if err := c.Validate(); !errors.Is(err, ErrInvalidCommand) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	if err := (Command{Linear: 1}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []Config{
		{Robot: "not an address"},
		{Frames: FrameTypes{RemoteControl: 2, Telemetry: 2}},
		{SendRate: -1},
		{MaxLinear: math.Inf(1)},
		{CommandTimeout: -1},
		{Calibration: &Calibration{Linear: -1, Angular: 1}},
		{MotorSlots: &[NumJoints]int{Waist: 10}},
		{Mapping: &Mapping{Linear: AxisChannel{Axis: 16}}},
		{Arm: ArmConfig{Lower: [NumJoints]float64{Waist: 1}, Upper: [NumJoints]float64{Waist: -1}}},
	}
	for i, c := range bad {
		if _, err := c.WithDefaults(); !errors.Is(err, ErrConfig) {
			t.Errorf("case %d: %v, want ErrConfig", i, err)
		}
	}
	c := defaults(t)
	if c.Robot != "10.42.0.1:10000" || c.SendRate != 5 || c.MinStartVelocity != 0.2 ||
		c.Calibration.Linear != 71553.837 || c.Calibration.Angular != 25171.216 || c.Frames != (FrameTypes{1, 2, 4}) {
		t.Errorf("defaults: %+v", c)
	}
}

func TestCounts(t *testing.T) {
	if got := CountsToRad(16384+100, 100); math.Abs(got-math.Pi/2) > 1e-4 {
		t.Errorf("quarter turn: %g rad", got)
	}
	if got := CountsToRad(0, 10); got >= 0 {
		t.Errorf("below zero should be negative: %g", got)
	}
	for _, a := range []float64{0, 1, -1, 3, -3} {
		if got := CountsToRad(RadToCounts(a, 5000), 5000); math.Abs(got-a) > math.Pi/CountsPerTurn {
			t.Errorf("round trip %g -> %g", a, got)
		}
	}
}
