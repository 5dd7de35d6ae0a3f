package cmdvel

import (
	"os"
	"testing"

	"gopkg.in/yaml.v3"
)

// The shipped twist_mux configuration has the topics the console and the
// docs name, the operator above Nav2, and the e-stop lock above both.
func TestTwistMuxConfig(t *testing.T) {
	b, err := os.ReadFile("../../params/twist_mux.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Topic    string   `yaml:"topic"`
		Timeout  *float64 `yaml:"timeout"`
		Priority *int     `yaml:"priority"`
	}
	var f map[string]struct {
		Params struct {
			Topics map[string]entry `yaml:"topics"`
			Locks  map[string]entry `yaml:"locks"`
		} `yaml:"ros__parameters"`
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	p, ok := f["twist_mux"]
	if !ok {
		t.Fatal("no twist_mux node in params/twist_mux.yaml")
	}
	byTopic := func(m map[string]entry, topic string) entry {
		t.Helper()
		for name, e := range m {
			if e.Topic == topic {
				if e.Priority == nil || e.Timeout == nil || *e.Priority < 0 || *e.Priority > 255 {
					t.Fatalf("%s (%s): priority %v timeout %v: both needed, priority in [0, 255]", name, topic, e.Priority, e.Timeout)
				}
				return e
			}
		}
		t.Fatalf("no entry on topic %s", topic)
		return entry{}
	}
	teleop, nav := byTopic(p.Params.Topics, TopicTeleop), byTopic(p.Params.Topics, TopicNav)
	lock := byTopic(p.Params.Locks, TopicLock)
	if *teleop.Priority <= *nav.Priority {
		t.Errorf("teleop priority %d must be above nav's %d", *teleop.Priority, *nav.Priority)
	}
	for name, e := range p.Params.Topics {
		if *lock.Priority <= *e.Priority {
			t.Errorf("the e-stop lock's priority %d does not mute %s (%d)", *lock.Priority, name, *e.Priority)
		}
		// A source that falls silent must hand over within the drivers'
		// default command timeout (0.5 s), and some jitter must not.
		if !(*e.Timeout >= 0.2 && *e.Timeout <= 0.5) {
			t.Errorf("%s timeout %g s: want 0.2 to 0.5 s", name, *e.Timeout)
		}
	}
	// 0: the lock holds its last value; a lock with a timeout would stop
	// the robot whenever the console is not running.
	if *lock.Timeout != 0 {
		t.Errorf("lock timeout %g: want 0 (held)", *lock.Timeout)
	}
}
