package peer

import (
	"testing"
	"time"

	"github.com/pion/rtp/codecs"
)

// A Source that ignores WantBitrate sends 4 Mbit/s into a session whose
// estimate is held at 700 kbit/s: the camera skips pictures up to the
// next keyframe whenever the pacer's queue takes over MaxQueueDelay to
// drain, so the queue and the delay stay bounded. (Without the skipping,
// MaxQueueDelay = 1 h, the queue reached 1.1 MB and the lateness grew by
// 2.2 s in these 4 s.)
func TestOvershootingSourceKeepsTheQueueBounded(t *testing.T) {
	front := newFakeSource(t)
	front.pad, front.fixed = true, 4_000_000
	cfg := testConfig(cameras(map[string]*fakeSource{"front": front}))
	cfg.MinBitrate, cfg.InitialBitrate, cfg.MaxBitrate = 500_000, 600_000, 700_000
	cfg.MaxQueueDelay = 300 * time.Millisecond
	s := newServer(t, cfg)
	c := connect(t, s, "front")
	tr := c.nextTrack(5 * time.Second)

	// The receiver measures how late each access unit arrives relative to
	// its RTP timestamp (which follows the capture clock); growth of that
	// lateness is queueing.
	lates := make(chan time.Duration, 4096)
	go func() {
		var dep codecs.H264Packet
		var t0 time.Time
		var ts0 uint32
		for {
			pkt, _, err := tr.ReadRTP()
			if err != nil {
				close(lates)
				return
			}
			if _, err := dep.Unmarshal(pkt.Payload); err != nil || !pkt.Marker {
				continue
			}
			now := time.Now()
			if t0.IsZero() {
				t0, ts0 = now, pkt.Timestamp
			}
			media := time.Duration(pkt.Timestamp-ts0) * time.Second / 90000
			lates <- now.Sub(t0) - media
		}
	}()

	var maxQueued int64
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		maxQueued = max(maxQueued, c.ss.Stats().Queued)
	}
	st := c.ss.Stats()
	var late []time.Duration
	for len(lates) > 0 {
		late = append(late, <-lates)
	}
	if len(late) < 10 {
		t.Fatalf("only %d access units arrived", len(late))
	}
	minLate, lastLate := late[0], late[len(late)-1]
	for _, l := range late {
		minLate = min(minLate, l)
	}
	growth := lastLate - minLate
	// Bound: MaxQueueDelay at the pacer's rate (1.5 x 700 kbit/s), plus a
	// keyframe and a picture (about 8 kB each) that pass the check.
	bound := int64(cfg.MaxQueueDelay.Seconds()*1.5*700_000/8) + 2*16700
	t.Logf("estimate %d bit/s, queue max %d bytes (bound %d), skipped %d, written %d, lateness growth %v over %d access units",
		st.Estimate, maxQueued, bound, st.Cameras[0].Skipped, st.Cameras[0].AccessUnits, growth.Round(time.Millisecond), len(late))
	if st.Cameras[0].Skipped == 0 {
		t.Error("nothing skipped although the source sends three times the estimate")
	}
	if maxQueued > bound {
		t.Errorf("the pacer's queue reached %d bytes, over %d", maxQueued, bound)
	}
	if growth > 600*time.Millisecond {
		t.Errorf("lateness grew by %v: the queue is building latency", growth)
	}
}
