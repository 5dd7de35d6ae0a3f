package furbot

import "testing"

func TestParamTablesWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range BridgeParams() {
		if seen[p.Name] {
			t.Errorf("parameter %s twice", p.Name)
		}
		seen[p.Name] = true
		if p.Description == "" || p.Unit == "" || p.Min > p.Default || p.Default > p.Max {
			t.Errorf("parameter %+v incomplete or default out of range", p)
		}
		switch p.Type {
		case "double", "int", "duration":
		default:
			t.Errorf("parameter %s: type %q", p.Name, p.Type)
		}
	}
}
