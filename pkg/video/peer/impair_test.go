package peer

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/pkg/impair"
)

// TestEstimateFallsUnderLoss runs the media through pkg/impair: the
// server's ICE uses one known UDP socket, the proxy forwards to it, and
// the client only learns the proxy's address (its own candidates are not
// sent, so the server learns the proxy's socket from the ICE checks).
// The padded fake camera follows its WantBitrate; once the estimate has
// settled, 30 % of the media is lost and the estimate, and the camera's
// share with it, must fall.
func TestEstimateFallsUnderLoss(t *testing.T) {
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { udp.Close() }) // after the Server's Close (cleanups run last first)
	serverAddr := udp.LocalAddr().(*net.UDPAddr).AddrPort()
	proxy, err := impair.New(impair.Config{Upstream: serverAddr, Seed: 17})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- proxy.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("proxy: %v", err)
		}
	}()

	front := newFakeSource(t)
	front.pad = true
	cfg := testConfig(cameras(map[string]*fakeSource{"front": front}))
	cfg.UDP = udp
	cfg.SplitInterval = 100 * time.Millisecond
	s := newServer(t, cfg)

	c := newClient(t)
	c.keepOwn = false
	direct := fmt.Sprintf(" %s %d ", serverAddr.Addr(), serverAddr.Port())
	via := fmt.Sprintf(" %s %d ", proxy.Addr().Addr(), proxy.Addr().Port())
	c.serverCandidate = func(init *webrtc.ICECandidateInit) bool {
		if !strings.Contains(init.Candidate, direct) {
			return false
		}
		init.Candidate = strings.Replace(init.Candidate, direct, via, 1)
		return true
	}
	ss, err := s.NewSession(c.sessionConfig())
	if err != nil {
		t.Fatal(err)
	}
	c.start(ss)
	c.send(`{"type":"want","cameras":["front"]}`)
	tr := c.nextTrack(5 * time.Second)
	go func() { // a receiving application: read everything
		for {
			if _, _, err := tr.ReadRTP(); err != nil {
				return
			}
		}
	}()

	// Clean link: let the estimate settle for 4 s and keep its peak.
	peak := 0
	for end := time.Now().Add(4 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		peak = max(peak, ss.Stats().Estimate)
	}
	clean := ss.Stats()
	through := proxy.Stats(impair.Down)
	t.Logf("clean: estimate %d bit/s (peak %d), share %d, want %d, %d packets sent, RTT %v, proxy forwarded %d down",
		clean.Estimate, peak, clean.Cameras[0].Share, front.want(), clean.Cameras[0].PacketsSent, clean.RTT, through.Sent)
	if clean.RTT <= 0 || clean.RTT > time.Second {
		t.Errorf("RTT from RTCP %v, want (0, 1 s] on loopback", clean.RTT)
	}
	if through.Sent < 100 {
		t.Fatalf("only %d packets went through the proxy", through.Sent)
	}

	if err := proxy.Set(impair.Down, impair.Impairment{Loss: 0.3}); err != nil {
		t.Fatal(err)
	}
	var lossy Stats
	fell := false
	lossFrom := time.Now()
	for end := time.Now().Add(8 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		lossy = ss.Stats()
		if lossy.Estimate < peak/2 && lossy.Cameras[0].Share < clean.Cameras[0].Share/2 && front.want() < clean.Cameras[0].Share/2 {
			fell = true
			break
		}
	}
	down := proxy.Stats(impair.Down)
	t.Logf("30 %% loss: after %v estimate %d bit/s, share %d, want %d, NACKs %d, proxy lost %d of %d",
		time.Since(lossFrom).Round(10*time.Millisecond), lossy.Estimate, lossy.Cameras[0].Share, front.want(), lossy.Cameras[0].NACKs, down.Lost(), down.Received)
	if !fell {
		t.Fatalf("under 30 %% loss the estimate stayed at %d bit/s (peak %d), share %d (was %d)",
			lossy.Estimate, peak, lossy.Cameras[0].Share, clean.Cameras[0].Share)
	}
	if lossy.Cameras[0].NACKs == 0 {
		t.Error("no NACK counted under loss")
	}
}
