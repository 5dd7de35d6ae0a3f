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
