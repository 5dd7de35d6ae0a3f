package peer

import (
	"sync/atomic"
	"time"
)

// overruns counts peer connection closes, in every Server of the
// process, that took longer than their Config.CloseTimeout.
var overruns atomic.Uint64

// CloseOverruns returns how many peer connection closes in this process
// overran their Config.CloseTimeout and went on in the background (a
// hung close, such as pion/mdns's with Config.MDNS, shows here and in the
// log, never as a stuck session).
func CloseOverruns() uint64 { return overruns.Load() }

// closePC closes the session's peer connection and waits for it at most
// Config.CloseTimeout; a close that takes longer finishes in the
// background and is logged twice: when it overran and when it ended (if
// it ever does).
func (ss *Session) closePC() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		ss.pcMu.Lock()
		defer ss.pcMu.Unlock()
		_ = ss.pc.Close()
	}()
	bound := ss.srv.cfg.CloseTimeout
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-done:
		return
	case <-t.C:
	}
	overruns.Add(1)
	start := time.Now().Add(-bound)
	log := ss.srv.cfg.Logger
	log.Warn("webrtc session: peer connection close overran its bound; it goes on in the background", "session", ss.id, "bound", bound)
	go func() {
		<-done
		log.Info("webrtc session: peer connection closed late", "session", ss.id, "took", time.Since(start).Round(time.Millisecond))
	}()
}
