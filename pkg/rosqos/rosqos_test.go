package rosqos

import (
	"errors"
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

const topic = "/f1/front/image_raw"

// store declares the override parameters of topic with the given
// overrides (parameter name -> value) as a node does at start-up.
func store(t *testing.T, over map[string]rosparam.ParameterValue) (*rosparam.Store, error) {
	t.Helper()
	var o rosparam.Overrides
	for name, v := range over {
		if err := o.Set("/f1/camera_publisher", name, v); err != nil {
			t.Fatal(err)
		}
	}
	return rosparam.New(rosparam.Config{Node: "/f1/camera_publisher", Table: Params(topic, SensorProfile), Overrides: &o})
}

func TestOverrides(t *testing.T) {
	rel, dur, hist, depth := ParamName(topic, PolicyReliability), ParamName(topic, PolicyDurability),
		ParamName(topic, PolicyHistory), ParamName(topic, PolicyDepth)
	str, num := rosparam.String, rosparam.Integer
	for _, tc := range []struct {
		name string
		over map[string]rosparam.ParameterValue
		want qos.Profile
		err  string // "" when accepted; else a part of the error
	}{
		{"none: REP-2003 system default", nil, qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepLast, Depth: 10}, ""},
		{"best effort", map[string]rosparam.ParameterValue{rel: str("best_effort")},
			qos.Profile{Reliability: qos.BestEffort, Durability: qos.Volatile, History: qos.KeepLast, Depth: 10}, ""},
		{"upper case as rclcpp", map[string]rosparam.ParameterValue{rel: str("BEST_EFFORT")},
			qos.Profile{Reliability: qos.BestEffort, Durability: qos.Volatile, History: qos.KeepLast, Depth: 10}, ""},
		{"every policy", map[string]rosparam.ParameterValue{rel: str("system_default"), dur: str("transient_local"), hist: str("keep_last"), depth: num(3)},
			qos.Profile{Reliability: qos.SystemReliability, Durability: qos.TransientLocal, History: qos.KeepLast, Depth: 3}, ""},
		{"keep all ignores depth 0", map[string]rosparam.ParameterValue{hist: str("keep_all"), depth: num(0)},
			qos.Profile{Reliability: qos.Reliable, Durability: qos.Volatile, History: qos.KeepAll, Depth: 0}, ""},
		{"unknown reliability", map[string]rosparam.ParameterValue{rel: str("fast")}, qos.Profile{},
			`unknown reliability "fast" (want reliable, best_effort or system_default)`},
		{"unknown durability", map[string]rosparam.ParameterValue{dur: str("latched")}, qos.Profile{},
			`unknown durability "latched" (want volatile, transient_local or system_default)`},
		{"unknown history", map[string]rosparam.ParameterValue{hist: str("last")}, qos.Profile{},
			`unknown history "last" (want keep_last, keep_all or system_default)`},
		{"negative depth", map[string]rosparam.ParameterValue{depth: num(-1)}, qos.Profile{}, "depth -1 out of range"},
		{"depth as text", map[string]rosparam.ParameterValue{depth: str("5")}, qos.Profile{}, depth},
		{"reliability as a number", map[string]rosparam.ParameterValue{rel: num(1)}, qos.Profile{}, rel},
		{"keep last with depth 0", map[string]rosparam.ParameterValue{depth: num(0)}, qos.Profile{},
			"keep_last history needs a depth of at least 1, got 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := store(t, tc.over)
			var got qos.Profile
			if err == nil {
				got, err = Profile(topic, SensorProfile, s.Get)
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("profile %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestOverridesAreReadOnly(t *testing.T) {
	s, err := store(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := s.SetParameters([]rosparam.Parameter{{Name: ParamName(topic, PolicyReliability), Value: rosparam.String("best_effort")}})
	if r[0].Successful {
		t.Error("a QoS override was changed after start-up")
	}
	names := s.ListParameters([]string{Prefix}, 0).Names
	for _, p := range Policies {
		want := "qos_overrides./f1/front/image_raw.publisher." + p
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("%s not declared (have %v)", want, names)
		}
	}
}

func TestProfileChecksTypes(t *testing.T) {
	get := func(name string) (rosparam.ParameterValue, bool) {
		if name == ParamName(topic, PolicyDepth) {
			return rosparam.Double(2), true
		}
		return rosparam.ParameterValue{}, false
	}
	p, err := Profile(topic, SensorProfile, get)
	if !errors.Is(err, ErrOverride) || p != SensorProfile {
		t.Errorf("Profile = %+v, %v; want the default and ErrOverride", p, err)
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	for _, r := range []qos.Reliability{qos.Reliable, qos.BestEffort, qos.SystemReliability} {
		if got, err := ParseReliability(FormatReliability(r)); err != nil || got != r {
			t.Errorf("reliability %d: %d, %v", r, got, err)
		}
	}
	for _, d := range []qos.Durability{qos.Volatile, qos.TransientLocal, qos.SystemDurability} {
		if got, err := ParseDurability(FormatDurability(d)); err != nil || got != d {
			t.Errorf("durability %d: %d, %v", d, got, err)
		}
	}
	for _, h := range []qos.History{qos.KeepLast, qos.KeepAll, qos.SystemHistory} {
		if got, err := ParseHistory(FormatHistory(h)); err != nil || got != h {
			t.Errorf("history %d: %d, %v", h, got, err)
		}
	}
}

func TestParamsFromAParamsFile(t *testing.T) {
	var o rosparam.Overrides
	yaml := "/**:\n  ros__parameters:\n    qos_overrides:\n      /f1/front/image_raw:\n        publisher:\n          reliability: best_effort\n          depth: 2\n"
	if err := o.AddYAML([]byte(yaml)); err != nil {
		t.Fatal(err)
	}
	s, err := rosparam.New(rosparam.Config{Node: "/f1/camera_publisher", Table: Params(topic, SensorProfile), Overrides: &o})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Profile(topic, SensorProfile, s.Get)
	want := qos.Profile{Reliability: qos.BestEffort, Durability: qos.Volatile, History: qos.KeepLast, Depth: 2}
	if err != nil || p != want {
		t.Errorf("Profile = %+v, %v; want %+v", p, err, want)
	}
	if u := s.Unused(); len(u) != 0 {
		t.Errorf("unused overrides %v", u)
	}
}

func TestResolve(t *testing.T) {
	remaps := []rosparam.Remap{
		{From: "__ns", To: "/x"},
		{From: "front/image_raw", To: "front/image"},
		{Node: "other", From: "odom", To: "/elsewhere"},
		{Node: "drv", From: "joint_states", To: "/js"},
	}
	for _, tc := range []struct {
		topic, name, ns string
		want            string
	}{
		{"odom", "drv", "/", "/odom"},
		{"odom", "drv", "/f1", "/f1/odom"},
		{"/tf", "drv", "/f1", "/tf"},
		{"~/telemetry", "drv", "/f1", "/f1/drv/telemetry"},
		{"~", "drv", "/", "/drv"},
		{"front/image_raw", "camera_publisher", "/f1", "/f1/front/image"},
		{"joint_states", "drv", "/f1", "/js"},
		{"joint_states", "arm", "/f1", "/f1/joint_states"},
	} {
		got, err := Resolve(tc.topic, tc.name, tc.ns, remaps)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%q, %q, %q) = %q, %v; want %q", tc.topic, tc.name, tc.ns, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "a//b", "1cam/image", "a b", "/"} {
		if got, err := Resolve(bad, "drv", "/", nil); err == nil {
			t.Errorf("Resolve(%q) = %q, want an error", bad, got)
		}
	}
}
