package graph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/telebridge/telebridge/pkg/console"
)

func (p *fakePort) PublishBool(topic string, v bool) error {
	p.add("bool %s %v", topic, v)
	return nil
}

func (p *fakePort) PublishJoy(topic string, j console.Joy) error {
	p.add("joy %s %v %v", topic, j.Axes, j.Buttons)
	return nil
}

func TestTwistMuxNames(t *testing.T) {
	c := config()
	c.TwistMux = true
	n, err := c.Names()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ got, want string }{
		{n.ServosilaCmdVel, "/cmd_vel_teleop"},
		{n.FurbotCmdVel, "/furbot/cmd_vel_teleop"},
		{n.ServosilaLock, "/e_stop"},
		{n.FurbotLock, "/furbot/e_stop"},
		{n.ServosilaJoy, "/joy"},
		{n.FurbotJoy, "/furbot/joy"},
	} {
		if c.got != c.want {
			t.Errorf("name %q, want %q", c.got, c.want)
		}
	}
	c = config()
	c.Joy = false
	if n, _ = c.Names(); n.ServosilaLock != "" || n.FurbotLock != "" || n.ServosilaJoy != "" || n.ServosilaCmdVel != "/cmd_vel" {
		t.Errorf("without twist_mux and joy: %+v", n)
	}
	// Both machines in one namespace still collide through twist_mux.
	c = config()
	c.TwistMux, c.FurbotNamespace = true, ""
	if _, err := c.Names(); err == nil {
		t.Error("two machines on one cmd_vel_teleop accepted")
	}
}

// With twist_mux the e-stop mutes every source first (the lock), then
// calls the drivers' e-stops; the release unlocks once the drivers are
// released; the lock is published again on demand.
func TestTwistMuxLock(t *testing.T) {
	c := config()
	c.TwistMux, c.Jog = true, false
	p := &fakePort{}
	b := newBackend(t, c, p)
	ctx := context.Background()
	if err := b.DriveServosila(ctx, 0.3, 0); err != nil {
		t.Fatal(err)
	}
	if err := b.PublishLocks(); err != nil {
		t.Fatal(err)
	}
	if err := b.EStop(ctx); err != nil {
		t.Fatal(err)
	}
	got := p.calls()
	want := []string{"twist /cmd_vel_teleop 0.3 0", "bool /e_stop false", "bool /furbot/e_stop false", "bool /e_stop true", "bool /furbot/e_stop true"}
	if len(got) != 7 || !slices.Equal(got[:5], want) {
		t.Fatalf("graph saw %q, want %q then the two e-stop services", got, want)
	}
	if err := b.ReleaseEStop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.PublishLocks(); err != nil {
		t.Fatal(err)
	}
	got = p.calls()[7:]
	want = []string{"trigger /servosila_driver/release", "trigger /furbot/furbot_bridge/release", "bool /e_stop false", "bool /furbot/e_stop false", "bool /e_stop false", "bool /furbot/e_stop false"}
	if !slices.Equal(got, want) {
		t.Fatalf("release: graph saw %q, want %q", got, want)
	}

	// Without twist_mux nothing is published as a lock.
	p = &fakePort{}
	b = newBackend(t, config(), p)
	if err := b.PublishLocks(); err != nil || len(p.calls()) != 0 {
		t.Fatalf("PublishLocks without twist_mux: %v, graph saw %q", err, p.calls())
	}
}

func TestPublishJoy(t *testing.T) {
	p := &fakePort{}
	b := newBackend(t, config(), p)
	if !b.Info().Joy {
		t.Fatal("Info().Joy is false with joy on")
	}
	ctx := context.Background()
	j := console.Joy{Machine: "furbot"}
	j.Axes[1], j.Buttons[0] = 1, 1
	if err := b.PublishJoy(ctx, j); err != nil {
		t.Fatal(err)
	}
	j.Machine = "servosila"
	if err := b.PublishJoy(ctx, j); err != nil {
		t.Fatal(err)
	}
	if err := b.PublishJoy(ctx, console.Joy{Machine: "arm"}); err == nil {
		t.Error("joy for an unknown machine accepted")
	}
	want := []string{"joy /furbot/joy [0 1 0 0 0 0] [1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]", "joy /joy [0 1 0 0 0 0] [1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0]"}
	if got := p.calls(); !slices.Equal(got, want) {
		t.Fatalf("graph saw %q, want %q", got, want)
	}
	c := config()
	c.Joy = false
	if newBackend(t, c, &fakePort{}).Info().Joy {
		t.Error("Info().Joy with joy off")
	}
}

// The jog panel follows jog_server's interface_namespace.
func TestJogNamespace(t *testing.T) {
	c := config()
	c.JogNamespace = "/arm2"
	n, err := c.Names()
	if err != nil {
		t.Fatal(err)
	}
	if n.JogStartJoint != "/arm2/remotecontrol_start_move_joints" || n.JogHeartbeat != "/arm2/dnb_remote_robot_control/heartbeat" ||
		n.JogStop != "/arm2/remotecontrol_stop_move" || n.JogJointStates != "/arm2/joint_states" {
		t.Errorf("jog names in /arm2: %+v", n)
	}
	c.JogNamespace = "arm2"
	if _, err := c.Names(); err == nil {
		t.Error("a relative jog_namespace accepted")
	}
}
