package servosila

import (
	"math"
	"time"

	"github.com/telebridge/telebridge/pkg/odometry"
	"github.com/telebridge/telebridge/pkg/servosila/wire"
)

// CommandLoss reports the commands that did not reach the robot, as the
// telemetry tells: its echoed speed commands and motor speeds compared
// with what the driver sent and when, and its gaps (control.CommandCheck).
// A loss shorter than the lost-link timeout (LinkState.LostAfter) does not
// stop the driver, but the motion the dead reckoning claimed since the last
// confirmation becomes pose covariance (Status.Odometry).
type CommandLoss struct {
	// Events counts the losses: one per telemetry gap or robot silence,
	// one per run of telemetry packets whose echo mismatches.
	Events uint64
	// Mismatches, Gaps and Silences count the telemetry packets that
	// showed each kind (see control.Verdict).
	Mismatches, Gaps, Silences uint64
	// MissingTelemetry counts the telemetry packets missing by tick.
	MissingTelemetry uint64
	// Last is the figure of the latest loss [s] (control.Verdict's
	// Unconfirmed: about the length of a blackout), LastKind its kind
	// (control.Verdict.Kind) and LastAt when the telemetry showed it
	// (zero before the first loss).
	Last     time.Duration
	LastKind string
	LastAt   time.Time
	// Longest is the largest figure so far [s].
	Longest time.Duration
	// Period is the telemetry period the check uses [s].
	Period time.Duration
}

// checkCommandsLocked hands one accepted telemetry packet, arrived at at,
// to the command check and acts on its verdict: counts, and pose
// covariance for the motion claimed since the last confirmation (unless a
// lost link since then has inflated it already). d.mu must be held.
func (d *Driver) checkCommandsLocked(t *wire.Telemetry, at time.Time, resync bool) {
	d.echoRx.Echo(t)
	d.speedRx.Speeds(t)
	v := d.cc.Telemetry(at, t.Tick, resync, &d.echoRx, &d.speedRx)
	odo := d.odo.State()
	if v.Loss() {
		l := &d.loss
		if v.New {
			l.Events++
		}
		if v.Mismatch {
			l.Mismatches++
		}
		if v.Gap {
			l.Gaps++
		}
		if v.Silence {
			l.Silences++
		}
		l.MissingTelemetry += v.Missing
		l.Last, l.LastKind, l.LastAt = v.Unconfirmed, v.Kind(), at
		l.Longest = max(l.Longest, v.Unconfirmed)
		if d.ls.state.Losses == d.confLosses {
			want := claimedVariance(odo, d.confOdo, min(v.Unconfirmed, VendorLinkTimeout))
			for i, w := range want {
				if w > d.added[i] {
					d.ls.inflate[i] += w - d.added[i]
					d.added[i] = w
				}
			}
		}
	}
	if v.Confirmed {
		d.confOdo, d.added, d.confLosses = odo, [3]float64{}, d.ls.state.Losses
	}
}

// recordSentLocked tells the command check what the robot should echo
// after the packet just sent at now (its channels as the robot reads
// them). d.mu must be held.
func (d *Driver) recordSentLocked(now time.Time, ch *wire.Channels) {
	mask := wire.ExpectEcho(&d.expect, ch, d.cfg.MotorSlots)
	d.cc.Sent(now, &d.expect, mask)
}

// claimedVariance is the pose variance (x, y [m²], yaw [rad²]) of the
// motion the dead reckoning claimed from the state at to now, which may not
// have happened, plus the motion the robot may have carried on with at the
// twist of at for on (the vendor server keeps its last command for
// VendorLinkTimeout).
func claimedVariance(now, at odometry.State, on time.Duration) [3]float64 {
	dd := now.Distance - at.Distance
	dyaw := odometry.NormalizeAngle(now.Pose.Yaw - at.Pose.Yaw)
	onL := math.Abs(at.Twist.V) * on.Seconds()
	onW := math.Abs(at.Twist.W) * on.Seconds()
	return [3]float64{dd*dd + onL*onL, dd*dd + onL*onL, dyaw*dyaw + onW*onW}
}
