package rosparam

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// testTable is a node table with every feature the store checks.
func testTable() Table {
	return Table{
		{Name: "rate", Type: ParameterInteger, Default: Integer(100), Unit: "Hz",
			Description: "Publish rate", Range: &Range{From: 10, To: 200, Step: 10}},
		{Name: "limits.linear", Type: ParameterDouble, Default: Double(1), Unit: "m/s",
			Description: "Maximum linear speed", Range: &Range{From: 0, To: 2, Step: 0.25}},
		{Name: "limits.angular", Type: ParameterDouble, Default: Double(1), Unit: "rad/s",
			Description: "Maximum angular speed", Range: &Range{From: 0, To: 3}},
		{Name: "limits.accel.max", Type: ParameterDouble, Default: Double(0.5), Unit: "m/s^2"},
		{Name: "frame_id", Type: ParameterString, Default: String("base_link"),
			Description: "Frame of the robot", Constraints: "a tf frame name",
			Validate: func(v ParameterValue) error {
				if v.StringValue == "" {
					return errors.New("must not be empty")
				}
				return nil
			}},
		{Name: "address", Type: ParameterString, Default: String("10.42.0.1"), ReadOnly: true,
			Description: "Robot address"},
		{Name: "gains", Type: ParameterDoubleArray, Default: DoubleArray([]float64{1, 0, 0}),
			Range: &Range{From: 0, To: 10}},
		{Name: "enabled", Type: ParameterBool, Default: Bool(true)},
	}
}

type recorder struct {
	mu      sync.Mutex
	changes [][]Parameter
	events  []ParameterEvent
}

func (r *recorder) onChange(u []Parameter) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, u)
}

func (r *recorder) onEvent(e ParameterEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func newTestStore(t *testing.T, o *Overrides) (*Store, *recorder) {
	t.Helper()
	r := &recorder{}
	s, err := New(Config{Node: "/robot1/drv", Table: testTable(), Overrides: o,
		Clock:    NewClock(func() time.Time { return time.Unix(1700000000, 5).UTC() }),
		OnChange: r.onChange, OnEvent: r.onEvent})
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

func TestNewDeclares(t *testing.T) {
	var o Overrides
	must(t, o.Set("/**", "rate", Integer(50)))
	must(t, o.Set("/robot1/drv", "address", String("192.168.1.2"))) // read-only: start-up value OK
	must(t, o.Set("/**", "typo_rate", Integer(1)))
	must(t, o.Set("/other", "enabled", Bool(false)))
	s, r := newTestStore(t, &o)
	got := s.GetParameters([]string{"rate", "address", "enabled", "use_sim_time", "typo_rate"})
	want := []ParameterValue{Integer(50), String("192.168.1.2"), Bool(true), Bool(false), {}}
	for i := range want {
		if !got[i].Equal(want[i]) {
			t.Errorf("value %d = %v, want %v", i, got[i], want[i])
		}
	}
	if u := s.Unused(); !slices.Equal(u, []string{"typo_rate"}) {
		t.Errorf("Unused() = %v", u)
	}
	if len(r.events) != 1 || len(r.events[0].NewParameters) != len(testTable())+1 ||
		r.events[0].Node != "/robot1/drv" || r.events[0].Stamp != (Time{Sec: 1700000000, Nanosec: 5}) {
		t.Errorf("declaration event: %+v", r.events)
	}
	if len(r.changes) != 0 {
		t.Errorf("OnChange called at declaration: %v", r.changes)
	}
}

func TestNewRefusesOverrides(t *testing.T) {
	cases := []struct {
		name, param string
		value       ParameterValue
		want        string
	}{
		{"int for double", "limits.angular", Integer(1),
			"Wrong parameter type, parameter {limits.angular} is of type {double}, setting it to {integer} is not allowed. (write a double"},
		{"string for int", "rate", String("fast"), "is of type {integer}, setting it to {string}"},
		{"out of range", "rate", Integer(300), "Parameter {rate} doesn't comply with integer range."},
		{"off step", "rate", Integer(15), "doesn't comply with integer range"},
		{"validator", "frame_id", String(""), "Parameter {frame_id}: must not be empty"},
		{"empty array for scalar", "rate", emptyArray(), "rate: an empty sequence is not of type integer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var o Overrides
			must(t, o.Set("/**", c.param, c.value))
			_, err := New(Config{Node: "/robot1/drv", Table: testTable(), Overrides: &o})
			if !errors.Is(err, ErrDeclare) {
				t.Fatalf("New: %v, want ErrDeclare", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not contain %q", err, c.want)
			}
		})
	}
}

func TestNewReportsEveryRefusal(t *testing.T) {
	var o Overrides
	must(t, o.AddYAML([]byte("/**:\n  ros__parameters: {rate: 7, limits: {linear: 1}, enabled: 1}\n")))
	_, err := New(Config{Node: "/drv", Table: testTable(), Overrides: &o})
	for _, want := range []string{"{rate} doesn't comply", "{limits.linear} is of type {double}", "{enabled} is of type {bool}"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %q", err, want)
		}
	}
}

func TestNewValidatesStartupSet(t *testing.T) {
	var o Overrides
	must(t, o.Set("/**", "limits.linear", Double(2)))
	validate := func(update []Parameter, current func(string) ParameterValue) error {
		if len(update) != len(testTable())+1 {
			return fmt.Errorf("update of %d parameters", len(update))
		}
		if current("limits.linear").DoubleValue > current("limits.angular").DoubleValue {
			return errors.New("linear above angular")
		}
		return nil
	}
	_, err := New(Config{Node: "/drv", Table: testTable(), Overrides: &o, Validate: validate})
	if !errors.Is(err, ErrDeclare) || !strings.Contains(err.Error(), "linear above angular") {
		t.Errorf("New: %v", err)
	}
	if _, err := New(Config{Node: "/drv", Table: testTable(), Validate: validate}); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
}

func TestEmptyArrayOverride(t *testing.T) {
	var o Overrides
	must(t, o.AddYAML([]byte("/**:\n  ros__parameters:\n    gains: []\n")))
	s, _ := newTestStore(t, &o)
	v, _ := s.Get("gains")
	if !v.Equal(DoubleArray(nil)) {
		t.Errorf("gains = %s %v, want an empty double array", TypeName(v.Type), v)
	}
}

func TestNewRefusesBadTables(t *testing.T) {
	cases := []struct {
		name  string
		table Table
		want  string
	}{
		{"twice", Table{{Name: "a", Type: ParameterBool, Default: Bool(true)}, {Name: "a", Type: ParameterBool, Default: Bool(true)}}, "twice"},
		{"bad name", Table{{Name: "a..b", Type: ParameterBool, Default: Bool(true)}}, "invalid parameter name"},
		{"type mismatch", Table{{Name: "a", Type: ParameterDouble, Default: Integer(1)}}, "default is integer"},
		{"not set", Table{{Name: "a"}}, "cannot be declared"},
		{"range on string", Table{{Name: "a", Type: ParameterString, Default: String(""), Range: &Range{To: 1}}}, "numeric"},
		{"reversed range", Table{{Name: "a", Type: ParameterDouble, Default: Double(0), Range: &Range{From: 1, To: 0}}}, "bad range"},
		{"fractional int range", Table{{Name: "a", Type: ParameterInteger, Default: Integer(0), Range: &Range{From: 0, To: 1.5}}}, "whole"},
		{"default out of range", Table{{Name: "a", Type: ParameterDouble, Default: Double(5), Range: &Range{To: 1}}}, "default refused"},
		{"prefix clash", Table{{Name: "a", Type: ParameterBool, Default: Bool(true)}, {Name: "a.b", Type: ParameterBool, Default: Bool(true)}}, "prefix"},
		{"use_sim_time type", Table{{Name: UseSimTime, Type: ParameterInteger, Default: Integer(0)}}, "must be a bool"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(Config{Node: "/n", Table: c.table})
			if !errors.Is(err, ErrTable) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("New: %v, want ErrTable mentioning %q", err, c.want)
			}
		})
	}
	if _, err := New(Config{Node: "drv"}); err == nil {
		t.Error("relative node name accepted")
	}
	// A table may declare use_sim_time itself, e.g. with another description.
	own := Table{{Name: UseSimTime, Type: ParameterBool, Default: Bool(true), Description: "sim"}}
	s, err := New(Config{Node: "/n", Table: own})
	if err != nil || !s.Clock().UseSimTime() || s.DescribeParameters([]string{UseSimTime})[0].Description != "sim" {
		t.Errorf("own use_sim_time: %v", err)
	}
}

func TestSetParameters(t *testing.T) {
	cases := []struct {
		name   string
		param  Parameter
		ok     bool
		reason string
	}{
		{"int in range on step", Parameter{"rate", Integer(150)}, true, ""},
		{"int at bound off step", Parameter{"rate", Integer(200)}, true, ""},
		{"int off step", Parameter{"rate", Integer(155)}, false, "Parameter {rate} doesn't comply with integer range."},
		{"int below", Parameter{"rate", Integer(0)}, false, "doesn't comply with integer range"},
		{"double on step", Parameter{"limits.linear", Double(1.75)}, true, ""},
		{"double on step, rounding", Parameter{"limits.linear", Double(0.1 + 0.15)}, true, ""},
		{"double off step", Parameter{"limits.linear", Double(1.3)}, false, "Parameter {limits.linear} doesn't comply with floating point range."},
		{"double above", Parameter{"limits.angular", Double(3.5)}, false, "floating point range"},
		{"double NaN", Parameter{"limits.angular", Double(math.NaN())}, false, "floating point range"},
		{"double no step", Parameter{"limits.angular", Double(2.9)}, true, ""},
		{"array element out of range", Parameter{"gains", DoubleArray([]float64{1, 11})}, false, "floating point range"},
		{"array ok", Parameter{"gains", DoubleArray([]float64{1, 2, 3, 4})}, true, ""},
		{"wrong type", Parameter{"limits.angular", Integer(2)}, false,
			"Wrong parameter type, parameter {limits.angular} is of type {double}, setting it to {integer} is not allowed."},
		{"wrong type bool", Parameter{"enabled", String("true")}, false, "is of type {bool}, setting it to {string}"},
		{"read-only", Parameter{"address", String("1.2.3.4")}, false, "parameter 'address' cannot be set because it is read-only"},
		{"undeclared", Parameter{"nope", Integer(1)}, false, "parameter 'nope' cannot be set because it was not declared"},
		{"empty name", Parameter{"", Integer(1)}, false, "parameter name must not be empty"},
		{"unset", Parameter{"rate", ParameterValue{}}, false, "cannot undeclare a statically typed parameter"},
		{"validator", Parameter{"frame_id", String("")}, false, "Parameter {frame_id}: must not be empty"},
		{"string", Parameter{"frame_id", String("base_footprint")}, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, r := newTestStore(t, nil)
			before, _ := s.Get(c.param.Name)
			res := s.SetParameters([]Parameter{c.param})
			if len(res) != 1 || res[0].Successful != c.ok || !strings.Contains(res[0].Reason, c.reason) || c.ok && res[0].Reason != "" {
				t.Fatalf("SetParameters = %+v, want ok=%v reason %q", res, c.ok, c.reason)
			}
			after, _ := s.Get(c.param.Name)
			if c.ok {
				if !after.Equal(c.param.Value) {
					t.Errorf("value after = %v, want %v", after, c.param.Value)
				}
				if len(r.changes) != 1 || len(r.events) != 2 || !r.events[1].ChangedParameters[0].Value.Equal(c.param.Value) {
					t.Errorf("notifications: changes %v events %v", r.changes, r.events)
				}
			} else {
				if !after.Equal(before) {
					t.Errorf("refused set changed the value to %v", after)
				}
				if len(r.changes) != 0 || len(r.events) != 1 {
					t.Errorf("refused set notified: changes %v events %d", r.changes, len(r.events))
				}
			}
		})
	}
}

func TestSetParametersIndependent(t *testing.T) {
	s, r := newTestStore(t, nil)
	res := s.SetParameters([]Parameter{{"rate", Integer(20)}, {"rate", Integer(21)}, {"enabled", Bool(false)}})
	if !res[0].Successful || res[1].Successful || !res[2].Successful {
		t.Fatalf("results %+v", res)
	}
	v := s.GetParameters([]string{"rate", "enabled"})
	if !v[0].Equal(Integer(20)) || !v[1].Equal(Bool(false)) {
		t.Errorf("values %v", v)
	}
	if len(r.changes) != 2 || len(r.events) != 3 {
		t.Errorf("one notification per accepted parameter: %d changes, %d events", len(r.changes), len(r.events))
	}
}

func TestSetParametersAtomically(t *testing.T) {
	s, r := newTestStore(t, nil)
	res := s.SetParametersAtomically([]Parameter{{"rate", Integer(20)}, {"limits.linear", Double(9)}})
	if res.Successful || !strings.Contains(res.Reason, "limits.linear") {
		t.Fatalf("result %+v", res)
	}
	if v, _ := s.Get("rate"); !v.Equal(Integer(100)) {
		t.Errorf("partial update: rate = %v", v)
	}
	res = s.SetParametersAtomically([]Parameter{{"rate", Integer(20)}, {"nope", Integer(1)}})
	if res.Successful || res.Reason != "One or more parameters were not declared before setting" {
		t.Errorf("undeclared: %+v", res)
	}
	if len(r.changes) != 0 || len(r.events) != 1 {
		t.Fatalf("refused update notified")
	}
	res = s.SetParametersAtomically([]Parameter{{"rate", Integer(20)}, {"limits.linear", Double(0.5)}, {"rate", Integer(30)}})
	if !res.Successful {
		t.Fatalf("result %+v", res)
	}
	want := []Parameter{{"rate", Integer(30)}, {"limits.linear", Double(0.5)}}
	if len(r.changes) != 1 || !paramsEqual(r.changes[0], want) || !paramsEqual(r.events[1].ChangedParameters, want) {
		t.Errorf("update %v event %+v, want %v", r.changes, r.events[1], want)
	}
	if len(r.events[1].NewParameters) != 0 || len(r.events[1].DeletedParameters) != 0 || r.events[1].Node != "/robot1/drv" {
		t.Errorf("event %+v", r.events[1])
	}
	if res := s.SetParametersAtomically(nil); !res.Successful || len(r.events) != 2 {
		t.Errorf("empty update: %+v, %d events", res, len(r.events))
	}
}

func paramsEqual(a, b []Parameter) bool {
	return slices.EqualFunc(a, b, func(x, y Parameter) bool { return x.Name == y.Name && x.Value.Equal(y.Value) })
}

func TestCrossValidate(t *testing.T) {
	// The linear limit may not exceed the angular one (an arbitrary rule).
	validate := func(update []Parameter, current func(string) ParameterValue) error {
		lin, ang := current("limits.linear").DoubleValue, current("limits.angular").DoubleValue
		for _, p := range update {
			switch p.Name {
			case "limits.linear":
				lin = p.Value.DoubleValue
			case "limits.angular":
				ang = p.Value.DoubleValue
			}
		}
		if lin > ang {
			return fmt.Errorf("limits.linear %.2f exceeds limits.angular %.2f", lin, ang)
		}
		return nil
	}
	s, err := New(Config{Node: "/drv", Table: testTable(), Validate: validate})
	must(t, err)
	if res := s.SetParameters([]Parameter{{"limits.linear", Double(2)}}); res[0].Successful ||
		res[0].Reason != "limits.linear 2.00 exceeds limits.angular 1.00" {
		t.Errorf("cross-parameter check not applied: %+v", res)
	}
	if res := s.SetParametersAtomically([]Parameter{{"limits.linear", Double(2)}, {"limits.angular", Double(2.5)}}); !res.Successful {
		t.Errorf("valid joint update refused: %s", res.Reason)
	}
}

func TestDescribeAndTypes(t *testing.T) {
	s, _ := newTestStore(t, nil)
	d := s.DescribeParameters([]string{"rate", "limits.linear", "frame_id", "address", "nope"})
	want := []ParameterDescriptor{
		{Name: "rate", Type: ParameterInteger, Description: "Publish rate [Hz]",
			IntegerRange: []IntegerRange{{FromValue: 10, ToValue: 200, Step: 10}}},
		{Name: "limits.linear", Type: ParameterDouble, Description: "Maximum linear speed [m/s]",
			FloatingPointRange: []FloatingPointRange{{FromValue: 0, ToValue: 2, Step: 0.25}}},
		{Name: "frame_id", Type: ParameterString, Description: "Frame of the robot", AdditionalConstraints: "a tf frame name"},
		{Name: "address", Type: ParameterString, Description: "Robot address", ReadOnly: true},
		{Name: "nope"},
	}
	for i := range want {
		if fmt.Sprintf("%+v", d[i]) != fmt.Sprintf("%+v", want[i]) {
			t.Errorf("descriptor %d:\n got %+v\nwant %+v", i, d[i], want[i])
		}
	}
	// The caller owns the returned ranges.
	d[0].IntegerRange[0].ToValue = 1
	if s.DescribeParameters([]string{"rate"})[0].IntegerRange[0].ToValue != 200 {
		t.Error("descriptor shares its range with the caller")
	}
	types := s.GetParameterTypes([]string{"rate", "gains", "enabled", "frame_id", "nope", "use_sim_time"})
	wantTypes := []uint8{ParameterInteger, ParameterDoubleArray, ParameterBool, ParameterString, ParameterNotSet, ParameterBool}
	if !slices.Equal(types, wantTypes) {
		t.Errorf("types %v, want %v", types, wantTypes)
	}
}

func TestGetReturnsCopies(t *testing.T) {
	s, _ := newTestStore(t, nil)
	v := s.GetParameters([]string{"gains"})[0]
	v.DoubleArrayValue[0] = 99
	if w, _ := s.Get("gains"); w.DoubleArrayValue[0] != 1 {
		t.Error("GetParameters shares its slice")
	}
	in := DoubleArray([]float64{2, 2})
	s.SetParameters([]Parameter{{"gains", in}})
	in.DoubleArrayValue[0] = 7
	if w, _ := s.Get("gains"); w.DoubleArrayValue[0] != 2 {
		t.Error("SetParameters kept the caller's slice")
	}
}

func TestListParameters(t *testing.T) {
	s, _ := newTestStore(t, nil)
	all := []string{"address", "enabled", "frame_id", "gains", "limits.accel.max", "limits.angular", "limits.linear", "rate", "use_sim_time"}
	cases := []struct {
		name     string
		prefixes []string
		depth    uint64
		names    []string
		pfx      []string
	}{
		{"all", nil, DepthRecursive, all, []string{"limits.accel", "limits"}},
		{"depth 1", nil, 1, []string{"address", "enabled", "frame_id", "gains", "rate", "use_sim_time"}, []string{}},
		{"depth 2", nil, 2, []string{"address", "enabled", "frame_id", "gains", "limits.angular", "limits.linear", "rate", "use_sim_time"}, []string{"limits"}},
		{"prefix recursive", []string{"limits"}, DepthRecursive, []string{"limits.accel.max", "limits.angular", "limits.linear"}, []string{"limits.accel", "limits"}},
		// rclcpp counts the '.' after the prefix: depth 1 lists nothing below it.
		{"prefix depth 1", []string{"limits"}, 1, []string{}, []string{}},
		{"prefix depth 2", []string{"limits"}, 2, []string{"limits.angular", "limits.linear"}, []string{"limits"}},
		{"exact name", []string{"rate"}, 1, []string{"rate"}, []string{}},
		{"prefix is not a name prefix", []string{"lim"}, DepthRecursive, []string{}, []string{}},
		{"two prefixes", []string{"limits.accel", "gains"}, DepthRecursive, []string{"gains", "limits.accel.max"}, []string{"limits.accel"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := s.ListParameters(c.prefixes, c.depth)
			if !slices.Equal(r.Names, c.names) || !slices.Equal(r.Prefixes, c.pfx) {
				t.Errorf("ListParameters(%q, %d) = %q %q, want %q %q", c.prefixes, c.depth, r.Names, r.Prefixes, c.names, c.pfx)
			}
		})
	}
}

func TestUseSimTimeDrivesClock(t *testing.T) {
	var o Overrides
	must(t, o.Set("/**", UseSimTime, Bool(true)))
	clock := NewClock(func() time.Time { return time.Unix(1000, 0) })
	r := &recorder{}
	s, err := New(Config{Node: "/drv", Table: testTable(), Overrides: &o, Clock: clock, OnEvent: r.onEvent})
	must(t, err)
	if !clock.UseSimTime() || r.events[0].Stamp != (Time{}) {
		t.Fatalf("use_sim_time override not applied: sim=%v stamp=%+v", clock.UseSimTime(), r.events[0].Stamp)
	}
	clock.FeedClock(Time{Sec: 42, Nanosec: 7})
	s.SetParameters([]Parameter{{"rate", Integer(20)}})
	if r.events[1].Stamp != (Time{Sec: 42, Nanosec: 7}) {
		t.Errorf("event stamp %+v, want the /clock time", r.events[1].Stamp)
	}
	s.SetParameters([]Parameter{{UseSimTime, Bool(false)}})
	if clock.UseSimTime() || r.events[2].Stamp != (Time{Sec: 1000}) {
		t.Errorf("use_sim_time false: sim=%v stamp %+v", clock.UseSimTime(), r.events[2].Stamp)
	}
	if res := s.SetParameters([]Parameter{{UseSimTime, Integer(1)}}); res[0].Successful {
		t.Error("use_sim_time accepted an integer")
	}
}

// TestConcurrentAccess runs service calls and node reads at once; run with
// -race. Every event must be delivered in commit order: the values the
// OnChange callback sees for "rate" must match the order of events.
func TestConcurrentAccess(t *testing.T) {
	var mu sync.Mutex
	var seenChange, seenEvent []int64
	s, err := New(Config{Node: "/drv", Table: testTable(),
		OnChange: func(u []Parameter) {
			mu.Lock()
			seenChange = append(seenChange, u[0].Value.IntegerValue)
			mu.Unlock()
		},
		OnEvent: func(e ParameterEvent) {
			if len(e.ChangedParameters) == 0 {
				return
			}
			mu.Lock()
			seenEvent = append(seenEvent, e.ChangedParameters[0].Value.IntegerValue)
			mu.Unlock()
		}})
	must(t, err)
	var wg sync.WaitGroup
	const writers, perWriter = 4, 200
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				v := int64(10 + 10*((w*perWriter+i)%20))
				if i%2 == 0 {
					s.SetParameters([]Parameter{{"rate", Integer(v)}})
				} else {
					s.SetParametersAtomically([]Parameter{{"rate", Integer(v)}, {"gains", DoubleArray([]float64{1, 2})}})
				}
			}
		}(w)
	}
	for rd := 0; rd < 2; rd++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 500; i++ {
				s.GetParameters([]string{"rate", "gains"})
				s.ListParameters(nil, DepthRecursive)
				s.DescribeParameters([]string{"rate"})
				s.GetParameterTypes([]string{"gains"})
				_, _ = s.DumpYAML()
				s.Clock().Now()
			}
		}()
	}
	wg.Wait()
	if len(seenChange) != writers*perWriter || !slices.Equal(seenChange, seenEvent) {
		t.Fatalf("%d changes, %d events, or out of order", len(seenChange), len(seenEvent))
	}
	last, _ := s.Get("rate")
	if last.IntegerValue != seenChange[len(seenChange)-1] {
		t.Errorf("final value %d, last notified %d", last.IntegerValue, seenChange[len(seenChange)-1])
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
