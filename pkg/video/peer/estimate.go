package peer

import (
	"sync"
	"time"

	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/interceptor/pkg/gcc"
)

// Loss thresholds and steps of the estimate's loss part (estimator).
const (
	lossDecrease = 0.10                   // average loss above this lowers the loss cap
	lossStep     = 200 * time.Millisecond // at most one change of the loss cap per step
	lossRaise    = 1.08                   // the cap's rise per step while loss is below lossDecrease
)

// estimator is each session's send-side estimate: pion's GCC for the
// delay-based part (the trendline of TWCC arrival times, which sees a
// queue growing at a bottleneck) and the loss it measures, with the loss
// part decided here.
//
// Why: pion's loss-based controller holds its rate while the loss is
// between 2 % and 10 % and takes the minimum with the delay-based rate on
// every update, so under a steady random loss in that band (3 % on a
// Wi-Fi link) every dip of the delay-based rate becomes permanent and the
// estimate ratchets down to MinBitrate, where the video stays (measured:
// 0.1 Mbit/s on a 3 Mbit/s link with 3 % loss, scripts/impaired-link.sh).
// Random loss on a radio link is not congestion, and NACK repairs it. So
// here the loss only lowers the estimate above 10 % (by half the loss,
// every 200 ms, as GCC does), and below that the cap rises back by 8 %
// every 200 ms, up to the delay-based rate, which alone decides then.
//
// The pacer follows this estimate (GCC's own target only reaches it
// through the delay-based part). GetTargetBitrate updates the estimate:
// the session calls it every Config.SplitInterval.
type estimator struct {
	*gcc.SendSideBWE        // TWCC feedback in, the delay-based rate, statistics
	pacer            *pacer // this package's event-driven leaky bucket
	min, max         int

	mu      sync.Mutex
	lossCap int       // the loss part's limit [bit/s]
	changed time.Time // last change of lossCap
	target  int       // the estimate [bit/s]
}

// newEstimator returns the estimator of one session.
func newEstimator(initial, minRate, maxRate int) (*estimator, error) {
	e := &estimator{min: minRate, max: maxRate, lossCap: maxRate, target: initial}
	e.pacer = newPacer(initial)
	bwe, err := gcc.NewSendSideBWE(gcc.SendSideBWEInitialBitrate(initial), gcc.SendSideBWEMinBitrate(minRate),
		gcc.SendSideBWEMaxBitrate(maxRate), gcc.SendSideBWEPacer(pacerOf{e.pacer}))
	if err != nil {
		_ = e.pacer.Close()
		return nil, err
	}
	e.SendSideBWE = bwe
	return e, nil
}

var _ cc.BandwidthEstimator = (*estimator)(nil)

// GetTargetBitrate updates and returns the estimate [bit/s], and sets the
// pacer to it. Safe for concurrent use.
func (e *estimator) GetTargetBitrate() int {
	st := e.GetStats()
	delay, ok := st["delayTargetBitrate"].(int)
	if !ok || delay <= 0 { // no feedback yet
		delay = e.SendSideBWE.GetTargetBitrate()
	}
	loss, _ := st["averageLoss"].(float64)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.target = e.update(time.Now(), delay, loss)
	e.pacer.SetTargetBitrate(e.target)
	return e.target
}

// update is the loss part's step at now with the delay-based rate delay
// [bit/s] and the average loss in [0, 1]; it returns the estimate.
func (e *estimator) update(now time.Time, delay int, loss float64) int {
	if now.Sub(e.changed) >= lossStep {
		switch {
		case loss > lossDecrease:
			e.lossCap = int(float64(min(e.lossCap, delay)) * (1 - 0.5*loss))
			e.changed = now
		case e.lossCap < e.max:
			e.lossCap = min(int(float64(e.lossCap)*lossRaise), e.max)
			e.changed = now
		}
	}
	e.lossCap = min(max(e.lossCap, e.min), e.max)
	return min(max(min(delay, e.lossCap), e.min), e.max)
}

// Close stops the estimator and its pacer.
func (e *estimator) Close() error {
	err := e.SendSideBWE.Close()
	if perr := e.pacer.Close(); err == nil {
		err = perr
	}
	return err
}

// pacerOf hands GCC the pacer without letting GCC set its rate: the
// estimator sets it.
type pacerOf struct{ *pacer }

// SetTargetBitrate ignores GCC's own target.
func (pacerOf) SetTargetBitrate(int) {}

// Close is the estimator's: GCC's Close leaves the pacer running.
func (pacerOf) Close() error { return nil }
