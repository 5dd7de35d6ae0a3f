package browsertest

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// Profile returns a browser context of browser with its own cookies and
// storage, as a second browser profile (or a second operator's machine)
// has; Page, OpenOn and Login open tabs in it. It lasts until the test
// ends.
func Profile(t testing.TB, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// The first run creates the browser context (and a blank tab in it):
	// not a context with a deadline.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browser context: %v", err)
	}
	return ctx
}

// Login opens a tab of browser on the console at url (without a token in
// it), where the console answers with its login form, types token into
// the form and submits it, as an operator does; it returns the tab once
// the console's page has loaded (its role pill is there).
func Login(t testing.TB, browser context.Context, url, token string, d Device) (context.Context, context.CancelFunc) {
	t.Helper()
	ctx, cancel := OpenOn(t, browser, url, d, "")
	if Eval[int](t, ctx, `document.querySelectorAll('form input[name=token]').length`) != 1 {
		cancel()
		t.Fatalf("%s: no login form but %q", url, Eval[string](t, ctx, `document.body.innerText.slice(0, 200)`))
	}
	Do(t, ctx, chromedp.SetValue(chromedp.CSS(`form input[name=token]`), token), chromedp.Click(chromedp.CSS(`form button`)),
		chromedp.WaitReady(chromedp.CSS(`#role`)))
	return ctx, cancel
}
