package impairedlink

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/internal/testkit/netns"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/impair"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// The environment scripts/impaired-link.sh sets.
const (
	envRun       = "TELEBRIDGE_IMPAIRED_LINK" // "1" runs the test
	envConsoleNS = "IMPAIRED_CONSOLE_NS"      // the console's namespace
	envLinkNS    = "IMPAIRED_LINK_NS"         // the relay's namespace
	envConsoleIP = "IMPAIRED_CONSOLE_IP"      // the console's address in its namespace
	envRelayIP   = "IMPAIRED_RELAY_IP"        // the relay's address, facing the operator
	envCap       = "IMPAIRED_CAP_BPS"         // the tbf rate [bit/s]
	envCameras   = "IMPAIRED_CAMERAS"         // optional: pattern cameras, comma separated (default front)
	envWander    = "IMPAIRED_WANDER"          // optional: the jitter's period (default 2s, impair.Impairment.Wander)
	envGrain     = "IMPAIRED_GRAIN"           // optional: the pattern cameras' noise (default 12, direct.Config.PatternGrain)
	envCapDevs   = "IMPAIRED_CAP_DEVS"        // the capped devices, NS:DEV separated by spaces
	envTBF       = "IMPAIRED_TBF"             // their tbf parameters ("rate 3mbit burst 8kb latency 80ms")
)

// The goals.
const (
	settleWithin  = 5 * time.Second        // the sent bitrate under the cap after
	maxFreeze     = time.Second            // longest time without a new picture
	maxP95        = 300 * time.Millisecond // glass-to-glass latency
	recoverWithin = time.Second            // video back after a blackout
	maxStop       = 500 * time.Millisecond // the robot may not stop longer while the key is held
	blackout      = 2 * time.Second
	impaired      = 15 * time.Second // the lossy phase, settling included
	// stallLimit is how long the video may stop, or take to come back
	// after the blackout, before the run counts it broken rather than a
	// goal missed.
	stallLimit = 5 * time.Second
)

// wireOverhead is added to each RTP packet's payload for the bitrate on
// the wire: RTP header 12, the transport-wide sequence extension 8, SRTP
// tag 10, UDP 8, IPv4 20 [bytes].
const wireOverhead = 58

// link is the impairment of each direction: 3 % loss, 40 +/- 20 ms of a
// delay that varies slowly (a new level every Wander, set by setup).
var link = impair.Impairment{Loss: 0.03, Delay: 20 * time.Millisecond, Jitter: 40 * time.Millisecond, Wander: 2 * time.Second}

// pageScript runs before the page's own: it records uncaught errors,
// every new frame-code counter of the front camera's WebRTC video with
// the wall time the page saw it [ms], and the times the page's main
// thread stalled (on a loaded machine: the browser starved of CPU, which
// stops its frame reading and its key re-sends alike).
const pageScript = `(() => {
	window.__errors = [];
	addEventListener('error', (e) => window.__errors.push(String(e.message)));
	addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));
	window.__ice = []; // ICE as the page sees it, for a run that does not connect
	const PC = window.RTCPeerConnection;
	window.RTCPeerConnection = function (...a) {
		const pc = new PC(...a), log = (x) => window.__ice.push((Date.now() % 100000) + ' ' + x);
		pc.addEventListener('icecandidate', (e) => log('local ' + (e.candidate ? e.candidate.candidate : 'done')));
		pc.addEventListener('iceconnectionstatechange', () => log('ice ' + pc.iceConnectionState));
		pc.addEventListener('connectionstatechange', () => log('pc ' + pc.connectionState));
		const add = pc.addIceCandidate.bind(pc), setRemote = pc.setRemoteDescription.bind(pc);
		pc.addIceCandidate = (c) => { log('remote ' + (c && c.candidate)); return add(c); };
		pc.setRemoteDescription = (d) => { log('offer with ' + ((d && d.sdp) || '').split('\n').filter((l) => l.startsWith('a=candidate')).join(' | ')); return setRemote(d); };
		return pc;
	};
	window.RTCPeerConnection.prototype = PC.prototype;
	window.__progress = [];
	window.__stalls = []; // [from, to] when this page's main thread ran nothing for over 100 ms
	let last = null, tick = Date.now();
	setInterval(() => {
		const now = Date.now();
		if (now - tick > 100) window.__stalls.push([tick, now]);
		tick = now;
		const c = window.__codes && window.__codes.front;
		if (c && c.transport === 'webrtc' && c.counter !== last) {
			last = c.counter;
			const l = window.__latency.front.webrtc;
			window.__progress.push([now, c.counter, l.length ? l[l.length - 1] : -1]);
		}
	}, 5);
})();`

type setup struct {
	consoleNS, linkNS  string
	consoleIP, relayIP netip.Addr
	capBPS             float64
	cameras            []string
	grain              int
	capDevs            [][2]string // namespace, device
	tbf                []string    // tbf's parameters
}

func fromEnv(t *testing.T) setup {
	t.Helper()
	if os.Getenv(envRun) != "1" {
		t.Skipf("the impaired-link run needs network namespaces: scripts/impaired-link.sh runs it (%s=1)", envRun)
	}
	var s setup
	var err error
	s.consoleNS, s.linkNS = os.Getenv(envConsoleNS), os.Getenv(envLinkNS)
	if s.consoleIP, err = netip.ParseAddr(os.Getenv(envConsoleIP)); err != nil {
		t.Fatalf("%s: %v", envConsoleIP, err)
	}
	if s.relayIP, err = netip.ParseAddr(os.Getenv(envRelayIP)); err != nil {
		t.Fatalf("%s: %v", envRelayIP, err)
	}
	if s.capBPS, err = strconv.ParseFloat(os.Getenv(envCap), 64); err != nil || s.capBPS <= 0 {
		t.Fatalf("%s: %q", envCap, os.Getenv(envCap))
	}
	for _, x := range strings.Fields(os.Getenv(envCapDevs)) {
		ns, dev, ok := strings.Cut(x, ":")
		if !ok {
			t.Fatalf("%s: %q is not NS:DEV", envCapDevs, x)
		}
		s.capDevs = append(s.capDevs, [2]string{ns, dev})
	}
	if s.tbf = strings.Fields(os.Getenv(envTBF)); len(s.capDevs) == 0 || len(s.tbf) == 0 {
		t.Fatalf("%s and %s are needed for the blackout", envCapDevs, envTBF)
	}
	// Overrides of the link for experiments (the figures name them).
	if v := os.Getenv("IMPAIRED_LOSS"); v != "" {
		if link.Loss, err = strconv.ParseFloat(v, 64); err != nil {
			t.Fatalf("IMPAIRED_LOSS: %v", err)
		}
	}
	if v := os.Getenv("IMPAIRED_JITTER"); v != "" {
		if link.Jitter, err = time.ParseDuration(v); err != nil {
			t.Fatalf("IMPAIRED_JITTER: %v", err)
		}
	}
	if v := os.Getenv(envWander); v != "" {
		if link.Wander, err = time.ParseDuration(v); err != nil || link.Wander < 0 {
			t.Fatalf("%s: %q", envWander, v)
		}
	}
	s.grain = 12
	if v := os.Getenv(envGrain); v != "" {
		if s.grain, err = strconv.Atoi(v); err != nil {
			t.Fatalf("%s: %v", envGrain, err)
		}
	}
	names := "front"
	if v := os.Getenv(envCameras); v != "" {
		names = v
	}
	for _, n := range strings.Split(names, ",") {
		s.cameras = append(s.cameras, "pattern:"+n)
	}
	return s
}

// sample is one reading of the console's WebRTC figures and the
// simulator's truth.
type sample struct {
	at       time.Time
	bytes    uint64 // RTP payload bytes sent, every camera, retransmissions included
	packets  uint64 // RTP packets sent
	estimate int    // the bandwidth estimate [bit/s]
	gcc      peer.GCC
	queued   int64  // bytes in the pacer
	plis     uint64 // keyframe requests (PLI + FIR), every camera
	skipped  uint64 // access units skipped by the latency guard
	units    uint64 // access units written
	linear   float64
}

// TestImpairedLink: the console's video and commands over a 3 Mbit/s link
// with 3 % loss and 40 +/- 20 ms each way, then a 2 s blackout.
func TestImpairedLink(t *testing.T) {
	s := fromEnv(t)
	browsertest.Chromium(t)
	if !video.H264Available() {
		t.Skipf("no WebRTC to measure: %v", video.H264Unavailable())
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	be, err := direct.Start(ctx, direct.Config{Furbot: "off", NoJog: true, Cameras: s.cameras,
		CameraWidth: 640, CameraHeight: 480, CameraRate: 30, PatternGrain: s.grain})
	if err != nil {
		t.Fatal(err)
	}

	// The console's listener and WebRTC socket in the console namespace.
	var ln net.Listener
	var udp *net.UDPConn
	err = netns.Do(s.consoleNS, func() error {
		var err error
		if ln, err = net.Listen("tcp4", netip.AddrPortFrom(s.consoleIP, 0).String()); err != nil {
			return err
		}
		udp, err = net.ListenUDP("udp4", net.UDPAddrFromAddrPort(netip.AddrPortFrom(s.consoleIP, 0)))
		return err
	})
	if err != nil {
		_ = be.Close()
		t.Fatal(err)
	}
	port := uint16(udp.LocalAddr().(*net.UDPAddr).Port)
	srv, err := console.New(console.Config{Backend: be, Listen: ln.Addr().String(), Insecure: true, // plain HTTP inside this run's namespaces
		WebRTC: peer.Config{UDP: udp, AdvertiseIPs: []string{s.relayIP.String()}}})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("console: %v", err)
		}
		if err := be.Close(); err != nil {
			t.Errorf("backend: %v", err)
		}
		_ = udp.Close()
	})

	// The relay in the link namespace, on the console's port.
	var proxy *impair.Proxy
	err = netns.Do(s.linkNS, func() error {
		var err error
		proxy, err = impair.New(impair.Config{Listen: netip.AddrPortFrom(s.relayIP, port).String(),
			Upstream: netip.AddrPortFrom(s.consoleIP, port), Seed: 17, Up: link, Down: link})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	relayed := make(chan error, 1)
	go func() { relayed <- proxy.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-relayed; err != nil {
			t.Errorf("relay: %v", err)
		}
	})
	fwd := startForwarder(t, ctx, s.linkNS, ln.Addr().String())

	// Readings every 25 ms (truth) and 250 ms (WebRTC figures).
	var (
		mu      sync.Mutex
		samples []sample
	)
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(25 * time.Millisecond)
		defer tick.Stop()
		var last sample
		for i := 0; ; i++ {
			select {
			case <-stopSampling:
				return
			case <-tick.C:
			}
			sm := last
			sm.at = time.Now()
			sm.linear = be.ServosilaSim().State().Linear
			if i%10 == 0 {
				sm.bytes, sm.packets, sm.estimate, sm.queued, sm.plis, sm.skipped, sm.units = 0, 0, 0, 0, 0, 0, 0
				for _, st := range srv.WebRTCStats() {
					sm.estimate = max(sm.estimate, st.Estimate)
					sm.gcc = st.GCC
					sm.queued += st.Queued
					for _, c := range st.Cameras {
						sm.bytes += c.BytesSent
						sm.packets += c.PacketsSent
						sm.plis += c.PLIs + c.FIRs
						sm.skipped += c.Skipped
						sm.units += c.AccessUnits
					}
				}
			}
			last = sm
			mu.Lock()
			samples = append(samples, sm)
			mu.Unlock()
		}
	}()
	stopOnce := sync.OnceFunc(func() { close(stopSampling); <-sampled })
	t.Cleanup(stopOnce)

	browser := browsertest.Start(t, ctx)
	p, closeP := browsertest.OpenOn(t, browser, srv.URL(fwd.ln.Addr()), browsertest.Desktop, pageScript)
	defer closeP()
	eval := func(js string) string { return browsertest.Eval[string](t, p, js) }
	browsertest.WaitFor(t, 20*time.Second, "the page connected", func() bool {
		r := browsertest.Role(t, p)
		return r == "IN CONTROL" || strings.HasPrefix(r, "VIEW ONLY")
	})
	if browsertest.Role(t, p) != "IN CONTROL" {
		browsertest.Click(t, p, "#take")
	}
	browsertest.WaitFor(t, 10*time.Second, "the page in control", func() bool { return browsertest.Role(t, p) == "IN CONTROL" })
	connectBy := time.Now().Add(30 * time.Second)
	for eval(`String(window.__progress.length)`) == "0" {
		if time.Now().After(connectBy) {
			t.Fatalf("no frame code over WebRTC through the relay in 30 s: page %s; ICE on the page %s; server %+v; relay up %+v, down %+v",
				eval(`JSON.stringify(window.__video.state())`), eval(`JSON.stringify(window.__ice)`), srv.WebRTCStats(),
				proxy.Stats(impair.Up), proxy.Stats(impair.Down))
		}
		time.Sleep(10 * time.Millisecond)
	}
	t0 := time.Now()
	t.Logf("video over WebRTC through the relay; chosen camera on the server: %s", chosen(srv))
	// The operator's session reads its datagrams as they arrive (commands
	// on its data channel must not wait for a picture), and with it the
	// shared socket; the state update after the lease makes it so.
	browsertest.WaitFor(t, 2*time.Second, "the operator's WebRTC session prompt", func() bool {
		st := srv.WebRTCStats()
		return len(st) == 1 && st[0].Prompt
	})
	for _, st := range s.qdiscStats(t) {
		t.Logf("at the first picture: %s", st)
	}

	// The impaired link: the key held throughout.
	browsertest.Do(t, p, browsertest.Key("w", true))
	time.Sleep(time.Until(t0.Add(settleWithin))) // the settling window, not a synchronisation
	early := browsertest.Eval[[]float64](t, p, `window.__latency.front.webrtc.splice(0)`)
	time.Sleep(time.Until(t0.Add(impaired))) // the measurement window
	steady := browsertest.Eval[[]float64](t, p, `window.__latency.front.webrtc.splice(0)`)
	figures := eval(`JSON.stringify(window.__video.state().figures.front || null)`)
	logPageLoad(t, browsertest.Eval[[][]float64](t, p, `performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource')).map(e => [e.transferSize, performance.timeOrigin + e.startTime, performance.timeOrigin + e.responseEnd])`), t0)
	tA := time.Now()

	// A blackout of both directions (media, commands, the WebSocket): the
	// capped devices drop everything (tc's blackhole qdisc), then get
	// their rate cap back.
	for _, st := range s.qdiscStats(t) {
		t.Logf("before the blackout: %s", st)
	}
	tb := time.Now()
	s.qdisc(t, "blackhole")
	time.Sleep(blackout)
	s.qdisc(t, append([]string{"tbf"}, s.tbf...)...)
	te := time.Now()
	time.Sleep(3 * time.Second) // after the link returned
	progressRaw := browsertest.Eval[[][]float64](t, p, `window.__progress`)
	stallsRaw := browsertest.Eval[[][]float64](t, p, `window.__stalls`)
	browsertest.Do(t, p, browsertest.Key("w", false))
	browsertest.StoppedAt(t, 5*time.Second, be.ServosilaSim().State)
	stopOnce()
	if errs := browsertest.Eval[[]string](t, p, `window.__errors`); len(errs) > 0 {
		t.Errorf("uncaught errors in the page: %q", errs)
	}

	mu.Lock()
	all := slices.Clone(samples)
	mu.Unlock()
	var shown []time.Time
	var lat []latency
	for _, x := range progressRaw {
		at := time.UnixMilli(int64(x[0]))
		shown = append(shown, at)
		if len(x) == 3 && x[2] >= 0 {
			lat = append(lat, latency{at, x[2]})
		}
	}
	var stalls []span
	for _, x := range stallsRaw {
		stalls = append(stalls, span{time.UnixMilli(int64(x[0])), time.UnixMilli(int64(x[1]))})
	}
	r := analyse(s, all, shown, stalls, lat, t0, tA, tb, te, early, steady)
	r.figures = figures
	r.up, r.down = proxy.Stats(impair.Up), proxy.Stats(impair.Down)
	for _, l := range r.lines() {
		t.Log(l)
	}
	if f := os.Getenv("CONSOLE_ARTIFACTS"); f != "" {
		_ = os.MkdirAll(f, 0o755)
		if err := os.WriteFile(f+"/impaired-link.txt", []byte(strings.Join(r.lines(), "\n")+"\n"), 0o644); err != nil {
			t.Error(err)
		}
	}
	// The estimate's course, once a second: how it got where it is.
	var course []string
	for i, sm := range all {
		if i%40 == 0 && !sm.at.Before(t0) && !sm.at.After(tA) {
			course = append(course, fmt.Sprintf("+%.0fs %.2f (delay %.2f %s/%s, loss %.1f %%)", sm.at.Sub(t0).Seconds(),
				float64(sm.estimate)/1e6, float64(sm.gcc.DelayBased)/1e6, sm.gcc.Usage, sm.gcc.State, 100*sm.gcc.Loss))
		}
	}
	t.Logf("estimate [Mbit/s]: %s", strings.Join(course, ", "))
	for _, g := range gaps(shown, all, t0, tA, 200*time.Millisecond) {
		t.Logf("gap: %s", g)
	}
	if os.Getenv("IMPAIRED_TIMELINE") == "1" {
		for i, sm := range all {
			if i%10 == 0 && sm.at.After(tb.Add(-time.Second)) && sm.at.Before(te.Add(3*time.Second)) {
				t.Logf("%+6d ms: estimate %d, queued %d B, PLIs %d, skipped %d, units %d, sent %d B, robot %.2f m/s",
					sm.at.Sub(te).Milliseconds(), sm.estimate, sm.queued, sm.plis, sm.skipped, sm.units, sm.bytes, sm.linear)
			}
		}
		for _, at := range shown {
			if at.After(tb) && at.Before(te.Add(3*time.Second)) {
				t.Logf("picture at %+d ms", at.Sub(te).Milliseconds())
			}
		}
	}
	for _, why := range r.misses() {
		t.Logf("GOAL MISSED: %s", why)
	}
	for _, why := range r.failures() {
		t.Error(why)
	}
}

// qdisc replaces the root qdisc of every capped device.
func (s setup) qdisc(t *testing.T, q ...string) {
	t.Helper()
	for _, d := range s.capDevs {
		s.tc(t, d, append([]string{"qdisc", "replace", "dev", d[1], "root"}, q...)...)
	}
}

// tc runs tc with args in capped device d's namespace and returns its
// output; a failure ends the test.
func (s setup) tc(t *testing.T, d [2]string, args ...string) []byte {
	t.Helper()
	args = append([]string{"netns", "exec", d[0], "tc"}, args...)
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return out
}

// logPageLoad logs what the page fetched over HTTP (entries of transfer
// size [bytes], start and end [Unix ms]) and how much of it was still
// arriving when the video started at t0: it shares the bottleneck with
// the video.
func logPageLoad(t *testing.T, entries [][]float64, t0 time.Time) {
	t.Helper()
	var total, late float64
	var last time.Time
	for _, e := range entries {
		if len(e) != 3 {
			continue
		}
		total += e[0]
		end := time.UnixMilli(int64(e[2]))
		if end.After(t0) {
			late += e[0]
		}
		if end.After(last) {
			last = end
		}
	}
	t.Logf("page load: %d fetches, %.0f kB over the link; %.0f kB of it ended after the first picture, the last %+d ms from it",
		len(entries), total/1e3, late/1e3, last.Sub(t0).Milliseconds())
}

// gaps describes every time over min without a new picture between t0
// and tA, with what the console's figures did over it (from the picture
// before to the one that ended it): keyframe requests, pictures skipped
// by the latency guard, the most bytes in the pacer, the estimate.
func gaps(shown []time.Time, all []sample, t0, tA time.Time, min time.Duration) []string {
	var out []string
	for i := 1; i < len(shown); i++ {
		a, b := shown[i-1], shown[i]
		if b.Sub(a) <= min || b.Before(t0) || a.After(tA) {
			continue
		}
		var first, last *sample
		var queued int64
		for j := range all {
			sm := &all[j]
			if sm.at.Before(a) || sm.at.After(b) {
				continue
			}
			if first == nil {
				first = sm
			}
			last = sm
			queued = max(queued, sm.queued)
		}
		if first == nil {
			out = append(out, fmt.Sprintf("+%.1f s, %d ms (no sample of the console in it)", a.Sub(t0).Seconds(), b.Sub(a).Milliseconds()))
			continue
		}
		out = append(out, fmt.Sprintf("+%.1f s, %d ms: keyframe requests +%d, skipped +%d, units +%d, pacer up to %d B, estimate %.2f-%.2f Mbit/s",
			a.Sub(t0).Seconds(), b.Sub(a).Milliseconds(), last.plis-first.plis, last.skipped-first.skipped, last.units-first.units,
			queued, float64(first.estimate)/1e6, float64(last.estimate)/1e6))
	}
	return out
}

// qdiscStats reads what every capped device's qdisc sent and dropped so
// far (the blackout replaces it, so the script's own readout after the run
// covers only the time after the link returned).
func (s setup) qdiscStats(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, d := range s.capDevs {
		b := s.tc(t, d, "-s", "qdisc", "show", "dev", d[1])
		out = append(out, d[0]+":"+d[1]+": "+strings.Join(strings.Fields(string(b)), " "))
	}
	return out
}

// chosen returns the camera the page's session has chosen.
func chosen(srv *console.Server) string {
	for _, s := range srv.WebRTCStats() {
		for _, c := range s.Cameras {
			if c.Chosen {
				return c.Camera
			}
		}
	}
	return "(none)"
}
