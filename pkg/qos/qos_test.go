package qos

import "testing"

func TestNamed(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Profile
		ok   bool
	}{
		{"default", Default, true},
		{"SENSOR_DATA", SensorData, true},
		{"best_effort", SensorData, true},
		{"static_tf", StaticTF, true},
		{"parameter_events", ParameterEvents, true},
		{"services", Services, true},
		{"fast", Profile{}, false},
	} {
		got, err := Named(tc.name)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Named(%q) = %+v, %v", tc.name, got, err)
		}
	}
}

func TestPresetsAreValid(t *testing.T) {
	for _, p := range []Profile{Default, SensorData, StaticTF, ParameterEvents, Services} {
		if err := p.Validate(); err != nil {
			t.Error(err)
		}
	}
	if err := (Profile{History: KeepLast}).Validate(); err == nil {
		t.Error("keep-last with depth 0 accepted")
	}
	if err := (Profile{Reliability: 7, Depth: 1}).Validate(); err == nil {
		t.Error("unknown reliability accepted")
	}
}

func TestCompatible(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pub, sub Profile
		want     bool
	}{
		{"reliable to reliable", Default, Default, true},
		{"best effort publisher, reliable subscriber", SensorData, Default, false},
		{"reliable publisher, best effort subscriber", Default, SensorData, true},
		{"latched publisher, volatile subscriber", StaticTF, Default, true},
		{"volatile publisher, latched subscriber", Default, StaticTF, false},
	} {
		if got := Compatible(tc.pub, tc.sub); got != tc.want {
			t.Errorf("%s: Compatible = %v, want %v", tc.name, got, tc.want)
		}
	}
}
