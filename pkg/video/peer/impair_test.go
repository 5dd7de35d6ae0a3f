package peer

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/pion/rtcp"
	"github.com/pion/rtp/codecs"
	"github.com/pion/webrtc/v4"
	"github.com/pion/webrtc/v4/pkg/media/samplebuilder"

	"github.com/telebridge/telebridge/pkg/impair"
)

// impaired is a session whose media runs through pkg/impair: the server's
// ICE uses one known UDP socket, the proxy forwards to it, and the client
// only learns the proxy's address (its own candidates are not sent, so the
// server learns the proxy's socket from the ICE checks).
type impaired struct {
	s     *Server
	c     *client
	ss    *Session
	proxy *impair.Proxy
	front *fakeSource
	tr    *webrtc.TrackRemote
}

func newImpaired(t *testing.T, tune func(*Config)) *impaired { return newImpairedPad(t, tune, true) }

// newImpairedPad is newImpaired with the camera padded to its budget or
// sending the fixture's small pictures as they are.
func newImpairedPad(t *testing.T, tune func(*Config), pad bool) *impaired {
	t.Helper()
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
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("proxy: %v", err)
		}
	})

	im := &impaired{proxy: proxy, front: newFakeSource(t)}
	im.front.pad = pad
	cfg := testConfig(cameras(map[string]*fakeSource{"front": im.front}))
	cfg.UDP = udp
	cfg.SplitInterval = 100 * time.Millisecond
	if tune != nil {
		tune(&cfg)
	}
	im.s = newServer(t, cfg)

	im.c = newClient(t)
	im.c.keepOwn = false
	direct := fmt.Sprintf(" %s %d ", serverAddr.Addr(), serverAddr.Port())
	via := fmt.Sprintf(" %s %d ", proxy.Addr().Addr(), proxy.Addr().Port())
	im.c.serverCandidate = func(init *webrtc.ICECandidateInit) bool {
		if !strings.Contains(init.Candidate, direct) {
			return false
		}
		init.Candidate = strings.Replace(init.Candidate, direct, via, 1)
		return true
	}
	im.ss, err = im.s.NewSession(im.c.sessionConfig())
	if err != nil {
		t.Fatal(err)
	}
	im.c.start(im.ss)
	im.c.send(`{"type":"want","cameras":["front"]}`)
	im.tr = im.c.firstTrack()
	return im
}

// drain reads and discards the track's RTP until it closes.
func drain(tr *webrtc.TrackRemote) {
	for {
		if _, _, err := tr.ReadRTP(); err != nil {
			return
		}
	}
}

// The padded fake camera follows its WantBitrate; once the estimate has
// settled, 30 % of the media is lost and the estimate, and the camera's
// share with it, must fall.
func TestEstimateFallsUnderLoss(t *testing.T) {
	im := newImpaired(t, nil)
	go drain(im.tr)
	ss, proxy, front := im.ss, im.proxy, im.front

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
	cs := lossy.Cameras[0]
	t.Logf("30 %% loss: after %v estimate %d bit/s, share %d, want %d, NACKs %d, resent %d, no longer held %d, skipped %d, proxy lost %d of %d",
		time.Since(lossFrom).Round(10*time.Millisecond), lossy.Estimate, cs.Share, front.want(),
		cs.NACKs, cs.Resent, cs.ResendMissed, cs.ResendSkipped, down.Lost(), down.Received)
	if !fell {
		t.Fatalf("under 30 %% loss the estimate stayed at %d bit/s (peak %d), share %d (was %d)",
			lossy.Estimate, peak, lossy.Cameras[0].Share, clean.Cameras[0].Share)
	}
	if cs.NACKs == 0 {
		t.Error("no NACK counted under loss")
	}
	// Every retransmission answers a NACK: what was resent, missed and
	// skipped is at most what was asked for (Stats reads the answers
	// before the questions).
	if cs.Resent == 0 || cs.Resent+cs.ResendMissed+cs.ResendSkipped > cs.NACKs {
		t.Errorf("resent %d, no longer held %d, skipped %d, of %d asked for: want some resent, and no more answers than asked",
			cs.Resent, cs.ResendMissed, cs.ResendSkipped, cs.NACKs)
	}
}

// A 2 s blackout of both directions keeps the session (ICE disconnects
// after 5 s), and video from a keyframe is back within 1 s of the link
// returning (the client asks with one PLI, as a browser does).
func TestBlackoutRecovers(t *testing.T) {
	im := newImpaired(t, nil)
	readNALs(t, im.c, im.tr, 10, 5*time.Second)
	im.proxy.SetBlackout(impair.Up, true)
	im.proxy.SetBlackout(impair.Down, true)
	time.Sleep(2 * time.Second)
	if err := im.tr.SetReadDeadline(time.Now().Add(10 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	for { // what was buffered before the blackout
		if _, _, err := im.tr.ReadRTP(); err != nil {
			break
		}
	}
	im.proxy.SetBlackout(impair.Up, false)
	im.proxy.SetBlackout(impair.Down, false)
	back := time.Now()
	readNALs(t, im.c, im.tr, 3, 5*time.Second) // SPS, PPS, IDR
	took := time.Since(back)
	st := im.ss.Stats()
	t.Logf("video back %v after the link, estimate %d bit/s, state %s, blackout drops %d down",
		took.Round(time.Millisecond), st.Estimate, st.State, im.proxy.Stats(impair.Down).Blackout)
	if took > time.Second {
		t.Errorf("video took %v to come back from a keyframe, want <= 1 s", took)
	}
	if im.ss.Err() != nil || st.State != "connected" {
		t.Errorf("the blackout ended the session: %+v, state %s", im.ss.Err(), st.State)
	}
}

// A link that stays down closes the session with ice-failed after
// ICEDisconnected + ICEFailed; a session on another path is unaffected.
func TestDeadLinkClosesWithICEFailed(t *testing.T) {
	im := newImpaired(t, func(c *Config) {
		c.ICEDisconnected = 2 * time.Second // keepalive checks every 1 s
		c.ICEFailed = time.Second
	})
	other := connect(t, im.s, "front") // direct, on its own ports
	otr := other.nextTrack(5 * time.Second)
	readNALs(t, im.c, im.tr, 3, 5*time.Second)
	readNALs(t, other, otr, 3, 5*time.Second)

	im.proxy.SetBlackout(impair.Up, true)
	im.proxy.SetBlackout(impair.Down, true)
	down := time.Now()
	select {
	case <-im.ss.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the session outlived a dead link")
	}
	t.Logf("closed %v after the link went down", time.Since(down).Round(time.Millisecond))
	if e := im.ss.Err(); e == nil || e.Code != CodeICEFailed {
		t.Errorf("Err() = %+v, want %s", e, CodeICEFailed)
	}
	readNALs(t, other, otr, 10, 5*time.Second)
	if st := other.ss.Stats(); st.State != "connected" {
		t.Errorf("the other session is %s", st.State)
	}
}

// The impaired link without its rate cap: 3 % loss and 40 +/- 20 ms
// each way. The receiver reassembles pictures with pion's sample builder
// (reordering, NACK retransmissions from the server) and counts a picture
// as shown only if it can be decoded: a keyframe, or the picture after the
// last one shown. The longest time without a shown picture must stay
// under 1 s.
func TestLossyLinkKeepsPlaying(t *testing.T) {
	im := newImpairedPad(t, nil, false)
	lossy := impair.Impairment{Loss: 0.03, Delay: 20 * time.Millisecond, Jitter: 40 * time.Millisecond}
	if err := im.proxy.Set(impair.Down, lossy); err != nil {
		t.Fatal(err)
	}
	if err := im.proxy.Set(impair.Up, lossy); err != nil {
		t.Fatal(err)
	}
	// The fixture's pictures by their last NAL unit (the slice).
	index := map[string]int{}
	for i, au := range im.front.aus {
		nals := splitNALs(au.Data)
		index[string(nals[len(nals)-1])] = i
	}
	sb := samplebuilder.New(512, &codecs.H264Packet{}, 90000)
	var shown []time.Time
	last, pli := -1, false
	end := time.Now().Add(6 * time.Second)
	if err := im.tr.SetReadDeadline(end); err != nil {
		t.Fatal(err)
	}
	for {
		pkt, _, err := im.tr.ReadRTP()
		if err != nil {
			break
		}
		sb.Push(pkt)
		for s := sb.Pop(); s != nil; s = sb.Pop() {
			nals := splitNALs(s.Data)
			if len(nals) == 0 {
				continue
			}
			i, ok := index[string(nals[len(nals)-1])]
			if !ok {
				continue // a picture with a lost packet inside
			}
			if im.front.aus[i].Key || (last >= 0 && i == (last+1)%len(im.front.aus)) {
				last, pli = i, false
				shown = append(shown, time.Now())
			} else if !pli { // undecodable: ask for a keyframe, as a browser does
				pli = true
				_ = im.c.pc.WriteRTCP([]rtcp.Packet{&rtcp.PictureLossIndication{MediaSSRC: uint32(im.tr.SSRC())}})
			}
		}
	}
	if len(shown) < 30 {
		t.Fatalf("only %d pictures shown in 6 s", len(shown))
	}
	var freeze time.Duration
	for i := 1; i < len(shown); i++ {
		freeze = max(freeze, shown[i].Sub(shown[i-1]))
	}
	freeze = max(freeze, end.Sub(shown[len(shown)-1]))
	st := im.ss.Stats()
	down := im.proxy.Stats(impair.Down)
	t.Logf("%d pictures shown of %d sent, longest freeze %v, NACKs %d, PLIs %d, estimate %d bit/s, proxy lost %d of %d down",
		len(shown), st.Cameras[0].AccessUnits, freeze.Round(time.Millisecond), st.Cameras[0].NACKs, st.Cameras[0].PLIs,
		st.Estimate, down.Lost(), down.Received)
	if freeze >= time.Second {
		t.Errorf("longest freeze %v, want < 1 s", freeze)
	}
}

// Packets of a dropped camera that are still on the link when the page
// applies the offer without it (here: 150 ms of delay down) must not show
// up as a track: they carry their section's MID, whose receiver is gone,
// so the page drops them instead of guessing a section by payload type.
// The re-added camera is then the next track, in its stream.
func TestRemovedCameraLeavesNoTrack(t *testing.T) {
	im := newImpairedPad(t, nil, false)
	go drain(im.tr)
	if err := im.proxy.Set(impair.Down, impair.Impairment{Delay: 150 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	readUntil := time.Now().Add(5 * time.Second)
	for im.proxy.Stats(impair.Down).Sent < 20 { // the delayed link carries video
		if time.Now().After(readUntil) {
			t.Fatal("no video through the delayed link")
		}
		time.Sleep(10 * time.Millisecond)
	}
	im.c.send(`{"type":"want","cameras":[]}`)
	select {
	case tr := <-im.c.tracks:
		t.Errorf("a track appeared after the camera was dropped: ssrc %d, stream %q", tr.SSRC(), tr.StreamID())
	case <-time.After(time.Second): // the delayed packets have arrived (unless the process stalled)
	}
	im.c.send(`{"type":"want","cameras":["front"]}`)
	again := im.c.nextTrack(10 * time.Second)
	if again.StreamID() != "front" {
		t.Errorf("re-added track in stream %q, want front", again.StreamID())
	}
	if n := len(im.c.tracks); n != 0 {
		t.Errorf("%d more tracks", n)
	}
}
