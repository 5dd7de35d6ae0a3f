package peer

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/interceptor/pkg/gcc"
	"github.com/pion/rtcp"
	"github.com/pion/rtp"
)

// estimator is each session's send-side estimate: pion's GCC for the
// delay-based part (the trendline of TWCC arrival times, which sees a
// queue growing at a bottleneck) and the loss it measures; when to back
// off and how to rise again are decided here (control,
// estimate_control.go).
//
// Why: pion's loss-based controller holds its rate while the loss is
// between 2 % and 10 % and takes the minimum with the delay-based rate on
// every update, so under a steady random loss in that band (3 % on a
// Wi-Fi link) every dip of the delay-based rate becomes permanent and the
// estimate ratchets down to MinBitrate (measured: 0.1 Mbit/s on a 3
// Mbit/s link with 3 % loss, scripts/impaired-link.sh). And pion's
// delay-based rate, once backed off, climbs back by ~10 kbit/s a second
// near the floor, so one burst of loss or delay cost the rest of a run.
// Here the estimate backs off on the delay-based part's overuse and on
// loss over 10 %, and rises on its own once the feedback has been calm
// for a while (control).
//
// The pacer follows this estimate (GCC's own target only reaches it
// through the delay-based part). GetTargetBitrate updates the estimate:
// the session calls it every Config.SplitInterval.
type estimator struct {
	*gcc.SendSideBWE        // TWCC feedback in, the delay-based rate, statistics
	pacer            *pacer // this package's event-driven leaky bucket

	epoch time.Time     // the origin of fed (monotonic)
	fed   atomic.Int64  // when the latest TWCC feedback came, since epoch [ns]; 0: none yet
	sent  atomic.Uint64 // bytes that left the pacer (RTP header and payload) [bytes]

	mu     sync.Mutex
	ctl    control    // the control law
	window sentWindow // sent into a rate
}

// newEstimator returns the estimator of one session.
func newEstimator(initial, minRate, maxRate int) (*estimator, error) {
	e := &estimator{epoch: time.Now(), ctl: newControl(initial, minRate, maxRate)}
	e.pacer = newPacer(initial)
	bwe, err := gcc.NewSendSideBWE(gcc.SendSideBWEInitialBitrate(initial), gcc.SendSideBWEMinBitrate(minRate),
		gcc.SendSideBWEMaxBitrate(maxRate), gcc.SendSideBWEPacer(pacerOf{e.pacer}))
	if err != nil {
		_ = e.pacer.Close()
		return nil, fmt.Errorf("peer: estimator: %w", err)
	}
	e.SendSideBWE = bwe
	return e, nil
}

var _ cc.BandwidthEstimator = (*estimator)(nil)

// AddStream counts the stream's packets as they leave the pacer (the
// sent rate that bounds the estimate's rise) and hands it to GCC.
func (e *estimator) AddStream(info *interceptor.StreamInfo, w interceptor.RTPWriter) interceptor.RTPWriter {
	return e.SendSideBWE.AddStream(info, interceptor.RTPWriterFunc(
		func(h *rtp.Header, payload []byte, a interceptor.Attributes) (int, error) {
			n, err := w.Write(h, payload, a)
			if err == nil {
				e.sent.Add(uint64(h.MarshalSize() + len(payload)))
			}
			return n, err
		}))
}

// WriteRTCP notes when congestion-control feedback came and hands the
// packets to GCC.
func (e *estimator) WriteRTCP(pkts []rtcp.Packet, a interceptor.Attributes) error {
	for _, p := range pkts {
		switch p.(type) {
		case *rtcp.TransportLayerCC, *rtcp.CCFeedbackReport:
			e.fed.Store(max(int64(time.Since(e.epoch)), 1))
		}
	}
	return e.SendSideBWE.WriteRTCP(pkts, a)
}

// GetTargetBitrate updates and returns the estimate [bit/s], and sets the
// pacer to it. Safe for concurrent use.
func (e *estimator) GetTargetBitrate() int {
	st := e.GetStats()
	loss, _ := st["averageLoss"].(float64)
	usage, _ := st["usage"].(string)
	state, _ := st["state"].(string)
	s := signals{overuse: usage == "overuse" || state == "decrease", loss: loss}
	delay, ok := st["delayTargetBitrate"].(int)
	if !ok || delay <= 0 {
		// No delay feedback yet: pion's empty statistics read as
		// overuse (its usage's zero value), which is not a signal.
		delay, s.overuse = e.SendSideBWE.GetTargetBitrate(), false
	}
	s.delay = delay
	now := time.Now()
	if ns := e.fed.Load(); ns > 0 {
		s.fed = e.epoch.Add(time.Duration(ns))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s.sentNow, s.sent = e.window.rate(now, e.sent.Load())
	target := e.ctl.update(now, s)
	e.pacer.SetTargetBitrate(target)
	return target
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
