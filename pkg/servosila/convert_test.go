package servosila

import (
	"errors"
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/servosila/control"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func defaults(t testing.TB) Config {
	t.Helper()
	c, err := Config{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestConvert(t *testing.T) {
	cfg := defaults(t)
	for _, c := range []struct {
		name    string
		cmd     wire.Command
		lin, an int16
		joints  [wire.NumJoints]int16
	}{
		{"zero", wire.Command{}, 0, 0, [wire.NumJoints]int16{}},
		{"0.3 m/s, 0.5 rad/s", wire.Command{Linear: 0.3, Angular: 0.5}, 21466, 12586, [wire.NumJoints]int16{}},
		{"0.1 m/s raised to 0.2", wire.Command{Linear: 0.1}, 14311, 0, [wire.NumJoints]int16{}},
		{"-0.1 rad/s raised to -0.2", wire.Command{Angular: -0.1}, 0, -5034, [wire.NumJoints]int16{}},
		{"clamped to max 0.45 m/s", wire.Command{Linear: 9}, 32199, 0, [wire.NumJoints]int16{}},
		{"0.5 m/s, 0.25 rad/s limited to 0.45, 0.225", wire.Command{Linear: 0.5, Angular: 0.25}, 32199, 5664, [wire.NumJoints]int16{}},
		{"0.45 m/s, 0.125 rad/s passes", wire.Command{Linear: 0.45, Angular: 0.125}, 32199, 3146, [wire.NumJoints]int16{}},
		{"clamped to -1.3 rad/s", wire.Command{Angular: -9}, 0, -32723, [wire.NumJoints]int16{}},
		{"joints clamped to 0.5 rad/s", wire.Command{Joints: [wire.NumJoints]float64{wire.Waist: 0.25, wire.Elbow: -3}}, 0, 0, [wire.NumJoints]int16{wire.Waist: 16384, wire.Elbow: -32767}},
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
		if got := wire.Saturate(c.v, 32767); got != c.want {
			t.Errorf("Saturate(%g) = %d, want %d", c.v, got, c.want)
		}
	}
}

func TestCommandValidate(t *testing.T) {
	for _, c := range []wire.Command{
		{Linear: math.NaN()}, {Angular: math.Inf(1)}, {Joints: [wire.NumJoints]float64{wire.Gripper: math.NaN()}},
	} {
		if err := c.Validate(); !errors.Is(err, wire.ErrInvalidCommand) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	if err := (wire.Command{Linear: 1}).Validate(); err != nil {
		t.Error(err)
	}
}

func TestConfigValidation(t *testing.T) {
	bad := []Config{
		{Robot: "not an address"},
		{Frames: wire.FrameTypes{RemoteControl: 2, Telemetry: 2}},
		{SendRate: -1},
		{MaxLinear: math.Inf(1)},
		{CommandTimeout: -1},
		{Calibration: &wire.Calibration{Linear: -1, Angular: 1}},
		{MotorSlots: &[wire.NumJoints]int{wire.Waist: 10}},
		{Mapping: &wire.Mapping{Linear: wire.AxisChannel{Axis: 16}}},
		{Arm: control.ArmConfig{Lower: [wire.NumJoints]float64{wire.Waist: 1}, Upper: [wire.NumJoints]float64{wire.Waist: -1}}},
	}
	for i, c := range bad {
		if _, err := c.WithDefaults(); !errors.Is(err, ErrConfig) {
			t.Errorf("case %d: %v, want ErrConfig", i, err)
		}
	}
	c := defaults(t)
	if c.Robot != "10.42.0.1:10000" || c.SendRate != 5 || c.MinStartVelocity != 0.2 ||
		c.Calibration.Linear != 71553.837 || c.Calibration.Angular != 25171.216 || c.Frames != (wire.FrameTypes{RemoteControl: 1, Telemetry: 2, Video: 4}) {
		t.Errorf("defaults: %+v", c)
	}
}

func TestCounts(t *testing.T) {
	if got := wire.CountsToRad(16384+100, 100); math.Abs(got-math.Pi/2) > 1e-4 {
		t.Errorf("quarter turn: %g rad", got)
	}
	if got := wire.CountsToRad(0, 10); got >= 0 {
		t.Errorf("below zero should be negative: %g", got)
	}
	for _, a := range []float64{0, 1, -1, 3, -3} {
		if got := wire.CountsToRad(wire.RadToCounts(a, 5000), 5000); math.Abs(got-a) > math.Pi/wire.CountsPerTurn {
			t.Errorf("round trip %g -> %g", a, got)
		}
	}
}

func BenchmarkControlStep(b *testing.B) {
	cfg, _ := Config{}.WithDefaults()
	cmd := wire.Command{Linear: 0.3, Angular: -0.4, Joints: [wire.NumJoints]float64{wire.Neck: 0.1, wire.Flippers: -0.2}}
	var rc wire.RemoteControl
	buf := make([]byte, wire.RemoteControlSize)
	b.ReportAllocs()
	for b.Loop() {
		ch := cfg.Convert(&cmd)
		cfg.Mapping.Encode(&rc, &ch)
		if _, err := wire.EncodeRemoteControl(buf, &rc); err != nil {
			b.Fatal(err)
		}
	}
}
