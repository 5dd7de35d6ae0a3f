package console

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/telebridge/telebridge/pkg/balance"
	"github.com/telebridge/telebridge/pkg/console/access"
)

// MsgBalanceSlope sets the ground's slope under the Servosila for the
// balance model: pitch and roll [rad] (REP 103: pitch > 0 nose down,
// roll > 0 left side up), each within ±MaxSlope.
const MsgBalanceSlope = "balance_slope"

// MaxSlope is the steepest slope the page may enter [rad] (60°).
const MaxSlope = math.Pi / 3

// DefaultBalanceThreshold is the stability margin [m] below which the
// page warns, unless Config.BalanceThreshold says otherwise.
const DefaultBalanceThreshold = 0.05

// DefaultBalanceRate is how often the balance is computed [Hz].
const DefaultBalanceRate = 5

type slopeMessage struct {
	Type  string   `json:"type"`
	Pitch *float64 `json:"pitch"`
	Roll  *float64 `json:"roll"`
}

// BalanceState is the "balance" entry of the page's state: the Servosila's
// static balance from its URDF and live joints (pkg/balance), in the base
// frame [m].
type BalanceState struct {
	CoM        [3]float64      `json:"com"`               // centre of mass
	Projection [3]float64      `json:"projection"`        // CoM along gravity on the ground plane
	GroundZ    float64         `json:"ground_z"`          // ground plane height
	Polygon    []balance.Point `json:"polygon"`           // support polygon, counter-clockwise
	Margin     float64         `json:"margin"`            // to the nearest edge, negative outside [m]
	Edge       int             `json:"edge"`              // index of the nearest edge
	Tip        []float64       `json:"tip"`               // tip-over angle of each edge [rad]
	Slope      balance.Ground  `json:"slope"`             // as entered [rad]
	Threshold  float64         `json:"threshold"`         // warn below this margin [m]
	Warn       bool            `json:"warn"`              // Margin < Threshold
	Assumed    string          `json:"assumed,omitempty"` // which share of the mass is assumed, "" none
	Mass       float64         `json:"mass"`              // [kg]
	// Error says why there is no balance ("no telemetry yet", "no robot
	// description"); the other fields are then zero.
	Error string `json:"error,omitempty"`
}

// balancePanel computes the Servosila's static balance at a modest rate
// from the live joints and warns below a threshold; the operator in
// control (RoleDrive) enters the ground's slope.
type balancePanel struct {
	be   Backend
	info Info

	mu        sync.Mutex // State/observe run outside the hub's lock
	threshold float64
	period    time.Duration
	slope     balance.Ground
	model     *balance.Model
	index     [NumServosilaJoints]int // model joint of each ServosilaJoints, -1: none
	q         []float64
	res       *balance.Result
	tried     time.Time // last attempt to build the model
	last      time.Time // last evaluation
	out       *BalanceState
}

func newBalancePanel(be Backend, info Info) panel {
	return &balancePanel{be: be, info: info, threshold: DefaultBalanceThreshold, period: time.Second / DefaultBalanceRate}
}

func (p *balancePanel) Name() string                    { return "balance" }
func (p *balancePanel) Types() []string                 { return []string{MsgBalanceSlope} }
func (p *balancePanel) Groups() []string                { return nil }
func (p *balancePanel) EStopped()                       {}
func (p *balancePanel) Zero(context.Context, int) error { return nil }
func (p *balancePanel) StopPage(context.Context, uint64) (int, error) {
	return 0, nil
}

// State adds nothing: the balance needs the snapshot (observe).
func (p *balancePanel) State(func(string, any)) {}

func (p *balancePanel) Handle(_ context.Context, c *call, _ string, raw []byte) error {
	var m slopeMessage
	if err := decode(raw, &m); err != nil {
		return err
	}
	pitch, err := num("pitch", m.Pitch, MaxSlope)
	if err != nil {
		return err
	}
	roll, err := num("roll", m.Roll, MaxSlope)
	if err != nil {
		return err
	}
	if err := c.Need(access.RoleDrive, "entering the slope"); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.slope = balance.Ground{Pitch: pitch, Roll: roll}
	p.last = time.Time{} // evaluate at the next state update
	return nil
}

// configure sets the threshold [m] and rate [Hz] (zero: the defaults).
func (p *balancePanel) configure(threshold, rate float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if threshold != 0 {
		p.threshold = threshold
	}
	if rate > 0 {
		p.period = time.Duration(float64(time.Second) / rate)
	}
}

// modelRetry is how often a missing robot description is asked for again.
const modelRetry = 5 * time.Second

// observe adds the "balance" entry to a state update from snap, computing
// it again when the period has passed.
func (p *balancePanel) observe(ctx context.Context, now time.Time, snap *Snapshot, add func(string, any)) {
	if !p.info.Servosila {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.out != nil && now.Sub(p.last) < p.period && !now.Before(p.last) {
		add("balance", p.out)
		return
	}
	p.last = now
	p.out = p.evaluate(ctx, now, snap.Servosila)
	add("balance", p.out)
}

func (p *balancePanel) evaluate(ctx context.Context, now time.Time, st *ServosilaState) *BalanceState {
	if p.model == nil {
		if !p.tried.IsZero() && now.Sub(p.tried) < modelRetry && !now.Before(p.tried) {
			return p.out
		}
		p.tried = now
		if err := p.load(ctx); err != nil {
			return &BalanceState{Error: err.Error(), Threshold: p.threshold, Slope: p.slope}
		}
	}
	if st == nil || !st.HaveTelemetry {
		return &BalanceState{Error: "no telemetry yet", Threshold: p.threshold, Slope: p.slope, Assumed: p.model.Assumed()}
	}
	for j, i := range p.index {
		if i >= 0 {
			p.q[i] = st.Joints[j]
		}
	}
	if err := p.model.Evaluate(p.q, p.slope, p.res); err != nil {
		return &BalanceState{Error: err.Error(), Threshold: p.threshold, Slope: p.slope}
	}
	r := p.res
	return &BalanceState{
		CoM: [3]float64{r.CoM.X, r.CoM.Y, r.CoM.Z}, Projection: [3]float64{r.Projection.X, r.Projection.Y, r.Projection.Z},
		GroundZ: r.GroundZ, Polygon: append([]balance.Point(nil), r.Polygon...), Margin: r.Margin, Edge: r.Edge,
		Tip: append([]float64(nil), r.Tip...), Slope: p.slope, Threshold: p.threshold, Warn: r.Margin < p.threshold,
		Assumed: r.Assumed, Mass: r.Mass,
	}
}

// load builds the model from the backend's description of the Servosila.
func (p *balancePanel) load(ctx context.Context) error {
	d, ok := p.be.(Describer)
	if !ok {
		return fmt.Errorf("balance: %w from this backend", ErrNoDescription)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	doc, err := d.RobotDescription(ctx, MachineServosila)
	if err != nil {
		return fmt.Errorf("balance: %w", err)
	}
	m, err := balance.New(strings.NewReader(doc), balance.ServosilaParams())
	if err != nil {
		return err
	}
	for j, name := range ServosilaJoints {
		p.index[j] = m.Joint(name)
	}
	p.model, p.q, p.res = m, make([]float64, len(m.Joints())), m.NewResult()
	return nil
}

// observe lets the panels that need the snapshot add their entries to a
// state update.
func (h *hub) observe(ctx context.Context, now time.Time, snap *Snapshot, add func(string, any)) {
	for _, s := range h.slots {
		if b, ok := s.p.(*balancePanel); ok {
			b.observe(ctx, now, snap, add)
		}
	}
}

// configureBalance sets the balance panel's threshold [m] and rate [Hz].
func (h *hub) configureBalance(threshold, rate float64) {
	for _, s := range h.slots {
		if b, ok := s.p.(*balancePanel); ok {
			b.configure(threshold, rate)
		}
	}
}
