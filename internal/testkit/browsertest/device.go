package browsertest

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Device is an emulated screen for OpenOn: its viewport [CSS px] and
// whether it is a touch device (mobile viewport, touch events, coarse
// pointer).
type Device struct {
	Width, Height int64 // viewport [CSS px]
	Touch         bool  // a touch device: mobile viewport, touch events, coarse pointer
}

// Desktop, Tablet and Phone are the drive screen's test sizes.
var (
	Desktop = Device{Width: 1400, Height: 900}
	Tablet  = Device{Width: 820, Height: 1180, Touch: true}
	Phone   = Device{Width: 390, Height: 844, Touch: true}
)

// String names the device as WIDTHxHEIGHT, with -touch for a touch
// device (used in subtest and screenshot names).
func (d Device) String() string {
	if d.Touch {
		return fmt.Sprintf("%dx%d-touch", d.Width, d.Height)
	}
	return fmt.Sprintf("%dx%d", d.Width, d.Height)
}

// FakeGamepad is an OpenOn script that replaces navigator.getGamepads
// before the page's scripts run: one pad in the standard mapping that a
// test moves through window.__pad (axes), window.__button(i, value) and
// window.__pads (the connected pads: [] unplugs it, without an event).
const FakeGamepad = `(() => {
	const btn = () => ({ pressed: false, touched: false, value: 0 });
	const pad = { id: 'test pad (STANDARD GAMEPAD)', index: 0, connected: true, mapping: 'standard', timestamp: 0,
		axes: [0, 0, 0, 0], buttons: Array.from({ length: 17 }, btn) };
	window.__pad = pad;
	window.__pads = [pad];
	Object.defineProperty(Navigator.prototype, 'getGamepads', { configurable: true, value: () => window.__pads.slice() });
	window.__button = (i, v) => { pad.buttons[i] = { pressed: v > 0.5, touched: v > 0, value: v }; return true; };
})()`

// OpenOn opens a new tab of browser on url with device's metrics; script,
// if not empty, runs in the page before its own scripts (e.g. a fake
// navigator.getGamepads).
func OpenOn(t testing.TB, browser context.Context, url string, d Device, script string) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	var opts []chromedp.EmulateViewportOption
	if d.Touch {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
	}
	acts := []chromedp.Action[chromedp.Void]{chromedp.EmulateViewport(d.Width, d.Height, opts...)}
	if script != "" {
		acts = append(acts, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
			return err
		}))
	}
	acts = append(acts, chromedp.Navigate(url))
	// The first run opens the tab and binds it to its context: not a
	// context with a deadline.
	if err := chromedp.Do(ctx, acts...); err != nil {
		cancel()
		t.Fatalf("browser: %v", err)
	}
	return ctx, cancel
}

// Finger is one touch point: its id and where it is [CSS px].
type Finger struct {
	ID   float64 // the touch point's identifier, constant while it is down
	X, Y float64 // where it is [CSS px]
}

// Touch dispatches a touch event with the fingers now on the screen:
// "touchStart" with a new finger, "touchMove" with moved ones (a finger
// left out is lifted), "touchEnd" (no fingers: all lifted).
func Touch(t testing.TB, ctx context.Context, typ input.DispatchTouchEventType, fingers ...Finger) {
	t.Helper()
	pts := make([]*input.TouchPoint, len(fingers))
	for i, f := range fingers {
		id := f.ID
		pts[i] = &input.TouchPoint{X: f.X, Y: f.Y, ID: &id}
	}
	Do(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
		return err
	}))
}

// Centre returns the point at fraction (fx, fy) of element id's box
// [CSS px, viewport]: (0.5, 0.5) is its centre.
func Centre(t testing.TB, ctx context.Context, id string, fx, fy float64) (x, y float64) {
	t.Helper()
	xy := Eval[[]float64](t, ctx, fmt.Sprintf(`(()=>{const b=document.getElementById(%q).getBoundingClientRect();return [b.x+b.width*%g,b.y+b.height*%g]})()`, id, fx, fy))
	return xy[0], xy[1]
}

// ImageSum is a page expression: a checksum of the image sel (CSS) drawn
// at 64x48, or -1 when it has no frame or no contrast (blank). Two
// different sums a moment apart: the stream plays.
func ImageSum(sel string) string {
	return fmt.Sprintf(`(() => {
		const img = document.querySelector(%q);
		if (!img || !img.naturalWidth) return -1;
		const c = document.createElement('canvas'); c.width = 64; c.height = 48;
		const g = c.getContext('2d'); g.drawImage(img, 0, 0, 64, 48);
		const d = g.getImageData(0, 0, 64, 48).data;
		let min = 255, max = 0, sum = 0;
		for (let i = 0; i < d.length; i += 4) { min = Math.min(min, d[i]); max = Math.max(max, d[i]); sum = (sum * 31 + d[i] + d[i+1] * 7 + d[i+2] * 13) %% 1000000007; }
		return max - min > 30 ? sum : -1;
	})()`, sel)
}

// OnScreen is a page expression: "" when element id lies wholly inside
// the viewport and is what a tap on its centre hits, else what is wrong.
func OnScreen(id string) string {
	return fmt.Sprintf(`(() => {
		const e = document.getElementById(%q);
		if (!e) return 'no element';
		const b = e.getBoundingClientRect(), w = window.innerWidth, h = window.innerHeight;
		if (b.width === 0 || b.height === 0) return 'not shown';
		if (b.left < 0 || b.top < 0 || b.right > w + 0.5 || b.bottom > h + 0.5) return 'box ' + [b.left, b.top, b.right, b.bottom].map(Math.round) + ' outside the viewport ' + w + 'x' + h;
		const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
		if (!hit || !(hit === e || e.contains(hit))) return 'covered by ' + (hit ? hit.tagName + '#' + hit.id + '.' + hit.className : 'nothing');
		return '';
	})()`, id)
}

// Overflow is a page expression: "" when neither the page nor the tab bar
// is wider than the viewport, else by how much.
const Overflow = `(() => {
	const w = document.documentElement.clientWidth, s = document.documentElement.scrollWidth;
	if (s > w) return 'page ' + s + ' px wide in a ' + w + ' px viewport';
	const tabs = document.getElementById('tabs');
	if (tabs.scrollWidth > tabs.clientWidth) return 'tabs ' + tabs.scrollWidth + ' px in ' + tabs.clientWidth;
	for (const b of tabs.querySelectorAll('button')) { const r = b.getBoundingClientRect(); if (r.width && (r.left < 0 || r.right > w)) return 'tab ' + b.textContent + ' outside'; }
	return '';
})()`
