package node

import (
	"errors"
	"math"
	"testing"

	"github.com/telebridge/telebridge/pkg/rosparam"
	"github.com/telebridge/telebridge/pkg/servosila"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

func defaults(t testing.TB) servosila.Config {
	t.Helper()
	c, err := servosila.Config{}.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParameterTable(t *testing.T) {
	table := DriverParameterTable()
	if err := table.Check(); err != nil {
		t.Fatal(err)
	}
	if len(table) < 30 {
		t.Errorf("only %d parameters", len(table))
	}
	c := defaults(t)
	for _, p := range table {
		got, err := Parameter(&c, p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(p.Default) {
			t.Errorf("%s: table default %v, Config default %v", p.Name, p.Default, got)
		}
		// Applying every default to an empty Config gives the defaults.
		var e servosila.Config
		if err := ApplyParameters(&e, []rosparam.Parameter{{Name: p.Name, Value: p.Default}}); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
	}
}

// The table plugs into a rosparam store: declared with an override, then
// a live change reaches the Config through ApplyParameters.
func TestParameterStore(t *testing.T) {
	args, err := rosparam.ParseArgs([]string{"--ros-args", "-p", "command_timeout:=0.25", "-p", "robot_address:=127.0.0.1:10000"})
	if err != nil {
		t.Fatal(err)
	}
	var live []rosparam.Parameter
	store, err := rosparam.New(rosparam.Config{
		Node: "/servosila", Table: DriverParameterTable(), Overrides: &args.Overrides,
		OnChange: func(u []rosparam.Parameter) { live = append(live, u...) },
	})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range DriverParameterTable() {
		names = append(names, p.Name)
	}
	values := store.GetParameters(names)
	start := make([]rosparam.Parameter, len(names))
	for i, n := range names {
		start[i] = rosparam.Parameter{Name: n, Value: values[i]}
	}
	var cfg servosila.Config
	if err := ApplyParameters(&cfg, start); err != nil {
		t.Fatal(err)
	}
	cfg, err = cfg.WithDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.CommandTimeout.Seconds() != 0.25 || cfg.Robot != "127.0.0.1:10000" || cfg.Calibration.Linear != 71553.837 {
		t.Errorf("config from the store: timeout %v, robot %s, calibration %g", cfg.CommandTimeout, cfg.Robot, cfg.Calibration.Linear)
	}
	res := store.SetParameters([]rosparam.Parameter{{Name: "max_velocity.neck", Value: rosparam.Double(0.8)}})
	if len(res) != 1 || !res[0].Successful {
		t.Fatalf("set: %+v", res)
	}
	if err := ApplyParameters(&cfg, live); err != nil || cfg.MaxJoint[wire.Neck] != 0.8 {
		t.Errorf("live change: %v, %v", err, cfg.MaxJoint)
	}
	if res := store.SetParameters([]rosparam.Parameter{{Name: "send_rate", Value: rosparam.Double(10)}}); res[0].Successful {
		t.Error("read-only send_rate changed live")
	}
}

func TestApplyParametersRefuses(t *testing.T) {
	for _, bad := range []rosparam.Parameter{
		{Name: "send_rate", Value: rosparam.Double(0)},
		{Name: "send_rate", Value: rosparam.Double(math.NaN())},
		{Name: "send_rate", Value: rosparam.Integer(5)},
		{Name: "robot_address", Value: rosparam.Double(1)},
		{Name: "shutdown_packets", Value: rosparam.Integer(0)},
		{Name: "motor_slot.waist", Value: rosparam.Integer(10)},
		{Name: "frame_type.telemetry", Value: rosparam.Integer(256)},
		{Name: "no_such", Value: rosparam.Double(1)},
	} {
		var c servosila.Config
		if err := ApplyParameters(&c, []rosparam.Parameter{bad}); !errors.Is(err, ErrParam) {
			t.Errorf("%s = %v: %v, want ErrParam", bad.Name, bad.Value, err)
		}
	}
}

// TestMaxSendRateParameter: the parameter reaches Config.MaxSendRate (which
// TestSendOnChange shows bounds the packets), defaults to 50 Hz, and may
// not be below send_rate.
func TestMaxSendRateParameter(t *testing.T) {
	var c servosila.Config
	if err := ApplyParameters(&c, []rosparam.Parameter{{Name: "max_send_rate", Value: rosparam.Double(10)}}); err != nil {
		t.Fatal(err)
	}
	if c, err := c.WithDefaults(); err != nil || c.MaxSendRate != 10 {
		t.Errorf("max_send_rate 10: %g Hz, %v", c.MaxSendRate, err)
	}
	if c, err := (servosila.Config{}).WithDefaults(); err != nil || c.MaxSendRate != 50 {
		t.Errorf("default %g Hz, %v", c.MaxSendRate, err)
	}
	if _, err := (servosila.Config{SendRate: 20, MaxSendRate: 10}).WithDefaults(); !errors.Is(err, servosila.ErrConfig) {
		t.Errorf("max_send_rate below send_rate: %v", err)
	}
}
