package sim

import (
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// fakePlant records the commands and reports a fixed truth.
type fakePlant struct {
	mu          sync.Mutex
	left, right float64
	joints      [wire.NumJoints]float64
	truth       Truth
	fail        error
}

func (p *fakePlant) Drive(l, r float64, j *[wire.NumJoints]float64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.left, p.right, p.joints = l, r, *j
	return p.fail
}

func (p *fakePlant) Observe(t *Truth) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	*t = p.truth
	return nil
}

func (p *fakePlant) cmd() (float64, float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.left, p.right
}

// TestPlant: with a plant, the tracks it is told to run are the stall
// model's and the link timeout's (unchanged protocol side), the state's
// pose and joints are the plant's truth, and the telemetry reports the
// plant's joint positions, speeds and currents.
func TestPlant(t *testing.T) {
	p := &fakePlant{}
	p.truth.Joints[wire.Neck] = 0.5
	p.truth.JointVel[wire.Neck] = 0.25
	p.truth.Currents[wire.Neck] = -3.4
	p.truth.Pose2D.X = 1.5
	s, c := start(t, Config{LinkTimeout: 200 * time.Millisecond, TelemetryRate: 100, Plant: p})
	rc := wire.RemoteControl{FrameType: 1}
	rc.Axes[1] = 7155 // 0.1 m/s: below the 0.15 start threshold
	send(t, c, s, &rc)
	wait(t, s, time.Second, func(st State) bool { return st.LinkUp && st.Steps > 3 })
	if l, r := p.cmd(); l != 0 || r != 0 {
		t.Errorf("plant told %g, %g m/s below the start threshold: want 0 (stall model first)", l, r)
	}
	rc.Axes[1] = 21466 // 0.3 m/s
	send(t, c, s, &rc)
	wait(t, s, time.Second, func(State) bool { l, r := p.cmd(); return l > 0 && r > 0 })
	if l, r := p.cmd(); math.Abs(l-0.3) > 1e-4 || math.Abs(r-0.3) > 1e-4 {
		t.Errorf("plant told %g, %g m/s: want 0.3", l, r)
	}
	st := s.State()
	if st.Pose.X != 1.5 || st.Joints[wire.Neck] != 0.5 || st.Truth.Currents[wire.Neck] != -3.4 {
		t.Errorf("state %+v: want the plant's truth", st)
	}
	// Telemetry: the neck's record carries the plant's position and current.
	buf := make([]byte, 2048)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	n, _, err := c.ReadFromUDPAddrPort(buf)
	if err != nil {
		t.Fatal(err)
	}
	var tel wire.Telemetry
	if err := wire.DecodeTelemetry(&tel, buf[:n], wire.DefaultFrameTypes().Telemetry); err != nil {
		t.Fatal(err)
	}
	slot := wire.DefaultMotorSlots()[wire.Neck]
	m := tel.Motors[slot]
	if m.Position != wire.RadToCounts(0.5, 0) || m.Current != -3 {
		t.Errorf("neck record %+v: want position of 0.5 rad, current -3 A", m)
	}
	// The link timeout stops the plant.
	wait(t, s, 2*time.Second, func(st State) bool { return !st.LinkUp })
	wait(t, s, time.Second, func(State) bool { l, r := p.cmd(); return l == 0 && r == 0 })
	// A failing plant is counted, not fatal.
	p.mu.Lock()
	p.fail = errors.New("boom")
	p.mu.Unlock()
	wait(t, s, time.Second, func(st State) bool { return st.PlantErrors > 0 && st.PlantErr != nil })
}
