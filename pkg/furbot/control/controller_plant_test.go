package control_test

import (
	"math"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/furbot/control"
	"github.com/telebridge/telebridge/pkg/furbot/internal/steptest"
	"github.com/telebridge/telebridge/pkg/furbot/sim"
	"github.com/telebridge/telebridge/pkg/furbot/wire"
)

// t0 is the start of the virtual clocks.
var t0 = steptest.T0

// plantLoop runs the controller against the simulated vehicle in simulated
// time (no sockets): the status frame and the control frame go through the
// codecs and take one period each way, as over UDP.
type plantLoop struct {
	veh  *sim.Vehicle
	ctl  *control.Controller
	now  time.Time
	dt   float64
	last wire.Control
	buf  []byte
}

func newPlantLoop(t *testing.T, cfg control.ControllerConfig) *plantLoop {
	t.Helper()
	veh, err := sim.NewVehicle(sim.Params{StartupTime: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := control.NewController(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &plantLoop{veh: veh, ctl: ctl, now: t0, dt: 0.01}
}

// step advances one period with the command cmd received at cmdAt.
func (p *plantLoop) step(t *testing.T, cmd control.Twist, cmdAt time.Time, estop bool) control.Output {
	var st wire.Status
	p.veh.Status(&st, 0, sim.Link{})
	p.buf = wire.AppendStatus(p.buf[:0], &st)
	var got wire.Status
	if err := wire.DecodeStatus(p.buf, &got); err != nil {
		t.Fatal(err)
	}
	out := p.ctl.Step(p.now, p.dt, control.Input{
		Cmd: cmd, CmdAt: cmdAt, EStop: estop, Ready: true,
		Speed: got.Traction.SpeedMPS(), Reverse: got.Traction.Reverse != 0,
	})
	// The vehicle applies the previous frame (one period of transport delay).
	prev := p.last
	p.last = out.Control()
	in := sim.Inputs{
		Steer:    float64(prev.Steer) * wire.AngleScale,
		Throttle: float64(prev.Throttle) * wire.PedalScale,
		Brake:    float64(prev.Brake) * wire.PedalScale,
		Reverse:  prev.Flags&wire.FlagReverse != 0,
	}
	if prev.Flags&wire.FlagEnable == 0 || prev.Flags&wire.FlagEStop != 0 {
		in = sim.Inputs{Steer: float64(prev.Steer) * wire.AngleScale, Brake: 1}
	}
	p.veh.Step(p.dt, in)
	p.now = p.now.Add(time.Duration(p.dt * float64(time.Second)))
	return out
}

func TestControllerSpeedStepOnPlant(t *testing.T) {
	p := newPlantLoop(t, control.ControllerConfig{})
	var v []float64
	for i := 0; i < 600; i++ {
		out := p.step(t, control.Twist{V: 1.5}, p.now, false)
		if out.Throttle > 0 && out.Brake > 0 {
			t.Fatalf("step %d: throttle %v and brake %v together", i, out.Throttle, out.Brake)
		}
		v = append(v, p.veh.Truth().V)
	}
	os, settle, sse := steptest.StepMetrics(steptest.UniformTimes(len(v), p.dt), v, 1.5, 0.02)
	t.Logf("plant step 0 -> 1.5 m/s: overshoot %.2f %%, settling (2 %% band) %.2f s, steady-state error %.4f m/s", os*100, settle, sse)
	if os > 0.05 || settle > 3 || sse > 0.02 {
		t.Errorf("step response out of spec")
	}
}

func TestControllerStaleCommandStopsOnPlant(t *testing.T) {
	p := newPlantLoop(t, control.ControllerConfig{})
	at := p.now
	for i := 0; i < 400; i++ {
		at = p.now
		p.step(t, control.Twist{V: 2}, at, false)
	}
	if v := p.veh.Truth().V; math.Abs(v-2) > 0.05 {
		t.Fatalf("did not reach 2 m/s: %v", v)
	}
	var out control.Output
	for i := 0; i < 400; i++ {
		out = p.step(t, control.Twist{V: 2}, at, false) // never refreshed
		if i > 60 && out.Throttle > 0 {
			t.Fatalf("throttle %v with a stale command", out.Throttle)
		}
	}
	if v := p.veh.Truth().V; v != 0 {
		t.Errorf("speed %v after 4 s of stale command, want 0", v)
	}
	if out.Mode != control.ModeHold || !out.Stale {
		t.Errorf("mode %v stale %v, want hold and stale", out.Mode, out.Stale)
	}
}

// TestControllerTracksVaryingCommandOnPlant: a planner-like cmd_vel that
// changes all the time (1.5 m/s ± 0.3 m/s, 0.1 Hz) is tracked closely.
func TestControllerTracksVaryingCommandOnPlant(t *testing.T) {
	p := newPlantLoop(t, control.ControllerConfig{})
	var sum2, worst float64
	n := 0
	for i := 0; i < 4000; i++ {
		ts := float64(i) * p.dt
		target := 1.5 + 0.3*math.Sin(2*math.Pi*0.1*ts)
		p.step(t, control.Twist{V: target}, p.now, false)
		if ts > 10 { // after the start-up transient
			e := p.veh.Truth().V - target
			sum2 += e * e
			worst = math.Max(worst, math.Abs(e))
			n++
		}
	}
	rms := math.Sqrt(sum2 / float64(n))
	t.Logf("plant, cmd 1.5 ± 0.3 m/s at 0.1 Hz: RMS speed error %.4f m/s, worst %.4f m/s", rms, worst)
	if rms > 0.03 || worst > 0.08 {
		t.Error("varying command not tracked")
	}
}
