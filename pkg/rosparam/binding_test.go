package rosparam

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

type demoConfig struct {
	Speed   float64
	Timeout time.Duration
	Rate    int
	Frame   string
	Enabled bool
	Gains   []float64
	Joints  []string
}

func demoDefaults() demoConfig {
	return demoConfig{Speed: 1.5, Timeout: 500 * time.Millisecond, Rate: 5, Frame: "base_link", Enabled: true,
		Gains: []float64{1, 0.1, 0}, Joints: []string{"waist", "shoulder"}}
}

func demoBindings() Bindings[demoConfig] {
	return Bindings[demoConfig]{
		BindDouble("max_speed", "m/s", "speed limit", func(c *demoConfig) *float64 { return &c.Speed }, Within(0, 3)),
		BindSeconds("command_timeout", "stale commands stop the robot", func(c *demoConfig) *time.Duration { return &c.Timeout }, Within(0.01, 10)),
		BindInt("rate", "Hz", "send rate", func(c *demoConfig) *int { return &c.Rate }, Within(1, 100), ReadOnly()),
		BindString("frame_id", "base frame", func(c *demoConfig) *string { return &c.Frame }, ReadOnly()),
		BindBool("enabled", "drive enabled", func(c *demoConfig) *bool { return &c.Enabled }),
		BindDoubles("pid", "", "kp, ki, kd", func(c *demoConfig) *[]float64 { return &c.Gains }),
		BindStrings("joints", "joint names", func(c *demoConfig) *[]string { return &c.Joints }, ReadOnly()),
	}
}

func TestBindingsTableTakesDefaultsFromTheConfig(t *testing.T) {
	table := demoBindings().Table(demoDefaults())
	if err := table.Check(); err != nil {
		t.Fatal(err)
	}
	want := map[string]ParameterValue{
		"max_speed":       Double(1.5),
		"command_timeout": Double(0.5),
		"rate":            Integer(5),
		"frame_id":        String("base_link"),
		"enabled":         Bool(true),
		"pid":             DoubleArray([]float64{1, 0.1, 0}),
		"joints":          StringArray([]string{"waist", "shoulder"}),
	}
	for _, p := range table {
		if !p.Default.Equal(want[p.Name]) {
			t.Errorf("%s: default %v, want %v", p.Name, p.Default, want[p.Name])
		}
	}
	if table[0].Unit != "m/s" || table[1].Unit != "s" || !table[2].ReadOnly || table[2].Range.To != 100 {
		t.Errorf("declarations lost their options: %+v", table[:3])
	}
}

func TestBindingsLoadAndApply(t *testing.T) {
	b := demoBindings()
	var ov Overrides
	if err := ov.AddYAML([]byte("drv:\n  ros__parameters:\n    max_speed: 2.5\n    command_timeout: 0.25\n    joints: [neck]\n")); err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Node: "/drv", Table: b.Table(demoDefaults()), Overrides: &ov})
	if err != nil {
		t.Fatal(err)
	}
	cfg := demoDefaults()
	if err := b.Load(&cfg, s); err != nil {
		t.Fatal(err)
	}
	want := demoDefaults()
	want.Speed, want.Timeout, want.Joints = 2.5, 250*time.Millisecond, []string{"neck"}
	if !reflect.DeepEqual(cfg, want) {
		t.Fatalf("loaded %+v, want %+v", cfg, want)
	}

	// A live set passes the store's checks, then Apply writes the config.
	applied := cfg
	res := s.SetParameters([]Parameter{{Name: "max_speed", Value: Double(9)}, {Name: "enabled", Value: Bool(false)}})
	if res[0].Successful || !res[1].Successful {
		t.Fatalf("set results %+v", res)
	}
	if err := b.Apply(&applied, []Parameter{{Name: "enabled", Value: Bool(false)}}); err != nil || applied.Enabled {
		t.Fatalf("apply: %v, enabled=%v", err, applied.Enabled)
	}
	if !reflect.DeepEqual(b.Values(&applied)[4], Parameter{Name: "enabled", Value: Bool(false)}) {
		t.Fatalf("values %v", b.Values(&applied))
	}
}

func TestBindingsApplyRejects(t *testing.T) {
	b := demoBindings()
	cfg := demoDefaults()
	for _, tc := range []struct {
		name string
		p    Parameter
		want string
	}{
		{"unknown", Parameter{Name: "nope", Value: Bool(true)}, `no parameter "nope"`},
		{"wrong type", Parameter{Name: "rate", Value: Double(5)}, `parameter "rate"`},
	} {
		err := b.Apply(&cfg, []Parameter{tc.p})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	if !reflect.DeepEqual(cfg, demoDefaults()) {
		t.Fatalf("a refused apply changed the config: %+v", cfg)
	}
}

func TestBindingsCopySlices(t *testing.T) {
	b := demoBindings()
	cfg := demoDefaults()
	v := b.Values(&cfg)[5].Value
	v.DoubleArrayValue[0] = 42
	if cfg.Gains[0] != 1 {
		t.Fatal("Values shares the config's slice")
	}
}

func TestBindingsCheckValidator(t *testing.T) {
	odd := BindInt("odd", "", "an odd number", func(c *demoConfig) *int { return &c.Rate },
		Check(func(v ParameterValue) error {
			if v.IntegerValue%2 == 0 {
				return errors.New("must be odd")
			}
			return nil
		}))
	s, err := New(Config{Node: "/n", Table: Bindings[demoConfig]{odd}.Table(demoDefaults())})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.SetParameters([]Parameter{{Name: "odd", Value: Integer(4)}}); r[0].Successful || !strings.Contains(r[0].Reason, "odd") {
		t.Fatalf("validator not applied: %+v", r)
	}
}

func ExampleBindings() {
	type config struct{ MaxSpeed float64 }
	table := Bindings[config]{
		BindDouble("max_speed", "m/s", "speed limit", func(c *config) *float64 { return &c.MaxSpeed }, Within(0, 3)),
	}.Table(config{MaxSpeed: 1.5})
	d := table[0].Descriptor()
	fmt.Println(table[0].Name, table[0].Default, d.Description, d.FloatingPointRange[0].ToValue)
	// Output: max_speed 1.5 speed limit [m/s] 3
}

func TestNest(t *testing.T) {
	type outer struct {
		Name  string
		Inner demoConfig
	}
	bs := Nest(demoBindings(), func(o *outer) *demoConfig { return &o.Inner })
	o := outer{Inner: demoDefaults()}
	if err := bs.Apply(&o, []Parameter{{Name: "max_speed", Value: Double(2)}}); err != nil || o.Inner.Speed != 2 {
		t.Fatalf("apply through Nest: %v, speed %v", err, o.Inner.Speed)
	}
	table := bs.Table(o)
	if table[0].Name != "max_speed" || !table[0].Default.Equal(Double(2)) || table[0].Range.To != 3 {
		t.Fatalf("nested table %+v", table[0])
	}
}
