package diag

import (
	"testing"
	"time"
)

func TestRaiseKeepsTheWorst(t *testing.T) {
	var s Status
	s.Raise(OK, "running")
	s.Raise(Error, "no telemetry")
	s.Raise(Warn, "e-stop latched")
	if s.Level != Error || s.Message != "no telemetry" {
		t.Fatalf("got %v %q", s.Level, s.Message)
	}
}

func TestAddFormats(t *testing.T) {
	var s Status
	s.Add("sent", uint64(12))
	s.Add("speed", 0.25)
	s.Add("age", 1500*time.Millisecond)
	s.Add("mode", "idle")
	want := []KeyValue{{"sent", "12"}, {"speed", "0.25"}, {"age", "1.500 s"}, {"mode", "idle"}}
	for i, kv := range want {
		if s.Values[i] != kv {
			t.Errorf("value %d = %+v, want %+v", i, s.Values[i], kv)
		}
	}
	if Warn.String() != "WARN" || Level(9).String() != "Level(9)" {
		t.Error("level names")
	}
}

func TestNamesCarryTheNode(t *testing.T) {
	f1, f2 := StatusName("/f1/furbot_bridge", "vehicle link"), StatusName("/f2/furbot_bridge", "vehicle link")
	root := StatusName("/furbot_bridge", "vehicle link")
	if f1 != "/f1/furbot_bridge: vehicle link" || f2 != "/f2/furbot_bridge: vehicle link" || root != "/furbot_bridge: vehicle link" {
		t.Errorf("names %q %q %q", f1, f2, root)
	}
	for _, tc := range []struct {
		name, node, component string
		ok                    bool
	}{
		{"/f1/furbot_bridge: vehicle link", "/f1/furbot_bridge", "vehicle link", true},
		{"/f2/furbot_bridge: vehicle link", "/f1/furbot_bridge", "", false},
		{"/f1/furbot_bridge: vehicle link", "/furbot_bridge", "", false},
		{"/f1/furbot_bridge_2: link", "/f1/furbot_bridge", "", false},
	} {
		if c, ok := Component(tc.name, tc.node); c != tc.component || ok != tc.ok {
			t.Errorf("Component(%q, %q) = %q, %v", tc.name, tc.node, c, ok)
		}
	}
}

func TestCheckInput(t *testing.T) {
	now := time.Unix(100, 0)
	for _, tc := range []struct {
		name  string
		in    Input
		level Level
		msg   string
		age   string
	}{
		{"fresh", Input{Name: "odom", Count: 3, Last: now.Add(-100 * time.Millisecond), Timeout: time.Second}, OK, "running", "0.100 s"},
		{"never", Input{Name: "odom", Timeout: time.Second}, Warn, "no odom received", "never"},
		{"stale", Input{Name: "odom", Count: 9, Last: now.Add(-2500 * time.Millisecond), Timeout: time.Second}, Warn, "odom is 2.500 s old", "2.500 s"},
	} {
		s := Status{}
		s.Raise(OK, "running")
		s.Check(tc.in, now, Warn)
		if s.Level != tc.level || s.Message != tc.msg || s.Values[1] != (KeyValue{"odom age", tc.age}) {
			t.Errorf("%s: %v %q %+v", tc.name, s.Level, s.Message, s.Values)
		}
	}
}

func TestArrivals(t *testing.T) {
	var a Arrivals
	if in := a.Input("cmd_vel", time.Second); in.Count != 0 || !in.Last.IsZero() || in.Name != "cmd_vel" || in.Timeout != time.Second {
		t.Errorf("empty: %+v", in)
	}
	at := time.Unix(5, 0)
	a.Mark(at.Add(-time.Second))
	a.Mark(at)
	if in := a.Input("cmd_vel", time.Second); in.Count != 2 || !in.Last.Equal(at) {
		t.Errorf("after two: %+v", in)
	}
}
