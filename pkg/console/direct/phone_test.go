package direct_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/browsertest"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/direct"
)

// firstPicture is an OpenOn script that records, in window.__fp, when the
// drive screen's large view first shows a picture [ms from the start of
// navigation] and how (webrtc: a decoded frame in its <video>; mjpeg: a
// decoded image in its <img>). It watches from outside the page's code,
// on every animation frame.
const firstPicture = `(() => {
	window.__fp = null;
	const loop = () => {
		const f = document.querySelector('#dcams figure.sel');
		if (f) {
			const v = f.querySelector('video'), i = f.querySelector('img');
			if (v && !v.hidden && v.videoWidth > 0 && v.readyState >= 2) { window.__fp = { ms: performance.now(), how: 'webrtc' }; return; }
			if (i && !i.hidden && i.complete && i.naturalWidth > 0) { window.__fp = { ms: performance.now(), how: 'mjpeg' }; return; }
		}
		requestAnimationFrame(loop);
	};
	requestAnimationFrame(loop);
})();`

// timeline lists the page's start in ms from navigation: the document's
// DOMContentLoaded and the page's own marks (the socket, the video's
// steps, the 3-D inset's load).
const timeline = `(() => {
	const n = performance.getEntriesByType('navigation')[0];
	const out = n ? ['dom ' + Math.round(n.domContentLoadedEventEnd)] : [];
	for (const m of performance.getEntriesByType('mark')) out.push(m.name + ' ' + Math.round(m.startTime));
	return out.join(', ');
})()`

// overlayCover is the fraction of the large view's picture covered by
// the drive screen's overlays (HUD boxes, the e-stop label, the 3-D
// inset, the transport badge), sampled on a 60 x 45 grid of points.
const overlayCover = `(() => {
	const f = document.querySelector('#dcams figure.sel');
	const pic = [...f.querySelectorAll('video, img')].find((e) => !e.hidden);
	const P = pic.getBoundingClientRect();
	const shown = (e) => { const s = getComputedStyle(e); return s.display !== 'none' && s.visibility !== 'hidden' && e.getBoundingClientRect().width > 0; };
	const rects = [...document.querySelectorAll('#dcams .hud .hudbox, #hud-estop, #dpose, #dcams figure.sel .vbadge')].filter(shown).map((e) => e.getBoundingClientRect());
	let n = 0, in_ = 0;
	for (let i = 0; i < 60; i++) for (let j = 0; j < 45; j++) {
		const x = P.left + (i + 0.5) * P.width / 60, y = P.top + (j + 0.5) * P.height / 45;
		n++;
		if (rects.some((r) => x >= r.left && x < r.right && y >= r.top && y < r.bottom)) in_++;
	}
	return in_ / n;
})()`

// offBand says which overlay box of the drive screen lies on the large
// picture's frame-code band (its top 1/20 of the drawn width, where
// pkg/video/framecode writes), or nothing when none does.
const offBand = `(() => {
	const f = document.querySelector('#dcams figure.sel');
	const pic = [...f.querySelectorAll('video, img')].find((e) => !e.hidden);
	const P = pic.getBoundingClientRect();
	const w = pic.videoWidth || pic.naturalWidth, h = pic.videoHeight || pic.naturalHeight;
	const k = Math.min(P.width / w, P.height / h), cw = w * k, ch = h * k;
	const left = P.left + (P.width - cw) / 2, top = P.top + (P.height - ch) / 2, band = top + cw / 20;
	for (const e of document.querySelectorAll('#dcams .hud .hudbox, #dcams figure.sel .vbadge')) {
		const s = getComputedStyle(e), r = e.getBoundingClientRect();
		if (s.display === 'none' || r.width === 0) continue;
		if (r.right > left && r.left < left + cw && r.top < band && r.bottom > top) return (e.id || e.className) + ' (' + JSON.stringify(e.textContent) + ') from ' + Math.round(r.top) + ' px, the band ' + Math.round(top) + '-' + Math.round(band) + ' px';
	}
	return '';
})()`

// TestPhoneFirstPicture measures the time to the first picture on the
// phone layout (390 x 844, touch, mobile viewport: Chromium's device
// emulation), over WebRTC (the console's default transport) and over
// MJPEG, on loopback (issue 29: more than 9 s; required under 2 s). The
// time is a figure, reported with t.Logf (median of three page loads),
// not asserted: the machine is shared. Asserted: the picture comes over
// the transport of the rig, the 3-D inset loads only after it, and at
// 21 s (the screenshot) the overlays cover at most a quarter of
// the large picture and none lies on its frame-code band.
func TestPhoneFirstPicture(t *testing.T) {
	for _, c := range []struct {
		name string
		rig  func(t *testing.T) *rig
	}{
		{"webrtc", func(t *testing.T) *rig {
			return webrtcRig(t, direct.Config{Furbot: "off", NoJog: true}, browsertest.AllowLoopbackWebRTC)
		}},
		{"mjpeg", func(t *testing.T) *rig {
			return newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{NoWebRTC: "this test shows MJPEG"})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.rig(t)
			var ms []float64
			defer func() {
				slices.Sort(ms)
				if len(ms) > 0 {
					t.Logf("first picture over %s on the phone layout: median %.0f ms of %d runs (%v)", c.name, ms[len(ms)/2], len(ms), ms)
				}
			}()
			for i := range 3 {
				p, closeP := browsertest.OpenOn(t, r.browser, r.url, browsertest.Phone, firstPicture)
				var fp struct {
					MS  float64 `json:"ms"`
					How string  `json:"how"`
				}
				waitFor(t, 30*time.Second, "the first picture in the large view", func() bool {
					fp = browsertest.Eval[struct {
						MS  float64 `json:"ms"`
						How string  `json:"how"`
					}](t, p, `window.__fp || { ms: 0, how: '' }`)
					return fp.How != ""
				})
				t.Logf("run %d: first picture after %.0f ms (%s); %s", i+1, fp.MS, fp.How, browsertest.Eval[string](t, p, timeline))
				if i == 0 {
					r.shot(p, fmt.Sprintf("phone-first-%s", c.name))
					// 21 s in (the screenshot): every overlay has
					// come (link figures, the 3-D inset, the badge's
					// figures).
					for browsertest.Eval[float64](t, p, `performance.now()`) < 21000 {
						time.Sleep(500 * time.Millisecond)
					}
					cover := browsertest.Eval[float64](t, p, overlayCover)
					t.Logf("at 21 s the overlays cover %.0f %% of the large picture", 100*cover)
					r.shot(p, fmt.Sprintf("phone-21s-%s", c.name))
					if cover > 0.25 {
						t.Errorf("at 21 s the overlays cover %.0f %% of the large picture: want at most 25 %%", 100*cover)
					}
					if why := browsertest.Eval[string](t, p, offBand); why != "" {
						t.Errorf("on the frame-code band: %s", why)
					}
				}
				if fp.How != c.name {
					t.Errorf("the first picture came over %s, want %s", fp.How, c.name)
				}
				ms = append(ms, fp.MS)
				// The 3-D inset loads after the first picture (it held up
				// the WebRTC handshake on a phone's main thread).
				if order := browsertest.Eval[string](t, p, `(() => { const at = (n) => { const m = performance.getEntriesByName(n)[0]; return m ? m.startTime : -1; };
					const l = at('drive:3d-load'), pic = at('video:picture'); return l >= 0 && l < pic ? 'the 3-D inset loaded at ' + Math.round(l) + ' ms, before the first picture at ' + Math.round(pic) + ' ms' : ''; })()`); order != "" {
					t.Error(order)
				}
				closeP()
			}
		})
	}
}

// insetOrange counts the robot's orange pixels (as robot3dPixels) in the
// drive screen's 3-D inset scaled to 160 x 120; -1 before it is drawn.
const insetOrange = `(() => {
	const src = document.querySelector('#dpose canvas');
	if (!src || !src.width || !window.drivePose3d || !window.drivePose3d.frames) return -1;
	const c = document.createElement('canvas'); c.width = 160; c.height = 120;
	const g = c.getContext('2d'); g.drawImage(src, 0, 0, 160, 120);
	const d = g.getImageData(0, 0, 160, 120).data;
	let orange = 0;
	for (let i = 0; i < d.length; i += 4) if (d[i] > 120 && d[i] - d[i+2] > 60 && d[i] > d[i+1]) orange++;
	return orange;
})()`

// TestPhoneInsetFollows: on the phone layout, the drive screen's 3-D
// inset keeps the robot in view while it drives 3 m (issue 29: it lost it
// after 1-2 m); the robot's orange covers about as much of the inset
// after the drive as before.
func TestPhoneInsetFollows(t *testing.T) {
	r := newRigWith(t, direct.Config{Furbot: "off", NoJog: true}, console.Config{NoWebRTC: "the inset does not depend on the transport"})
	p, closeP := browsertest.OpenOn(t, r.browser, r.url, browsertest.Phone, "")
	defer closeP()
	var before int
	waitFor(t, 30*time.Second, "the 3-D inset drawn with the robot", func() bool {
		before = browsertest.Eval[int](t, p, insetOrange)
		return before > 50
	})
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { // held, as a page holds it (the driver stops a twist that is not refreshed)
		defer close(done)
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			if err := r.be.DriveServosila(ctx, 0.45, 0); err != nil && ctx.Err() == nil {
				t.Errorf("drive: %v", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	sim := r.be.ServosilaSim()
	d0 := sim.State().Distance
	waitFor(t, 30*time.Second, "the simulated robot 3 m along", func() bool { return sim.State().Distance-d0 > 3 })
	stop()
	<-done
	if err := r.be.DriveServosila(context.Background(), 0, 0); err != nil {
		t.Fatal(err)
	}
	// The page's odometry at the robot's (the state comes a few times a
	// second), then a frame drawn.
	waitFor(t, 10*time.Second, "the inset's robot 2.9 m along", func() bool {
		return browsertest.Eval[bool](t, p, `window.drivePose3d.robot.matrixWorld.elements[12] > 2.9`)
	})
	time.Sleep(300 * time.Millisecond)
	after := browsertest.Eval[int](t, p, insetOrange)
	t.Logf("the robot's orange in the inset: %d pixels before, %d after driving 3 m (of 160 x 120)", before, after)
	r.shot(p, "phone-inset-3m")
	if after < before/2 {
		t.Errorf("after driving 3 m the inset shows %d orange pixels of the robot, before %d: it lost the robot", after, before)
	}
}
