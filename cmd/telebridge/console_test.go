package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"
)

var urlRe = regexp.MustCompile(`open (http://\S+)`)

// startConsole runs `telebridge console args...` until the returned
// cancel, and returns the URL it printed.
func startConsole(t *testing.T, args ...string) (string, *safeBuffer, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &safeBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"console"}, args...), stdio{in: strings.NewReader(""), out: out, err: io.Discard})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !urlRe.MatchString(out.String()) {
		select {
		case c := <-code:
			cancel()
			t.Fatalf("console exited %d: %s", c, out.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("no URL printed: %q", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop := func() int { cancel(); return <-code }
	return urlRe.FindStringSubmatch(out.String())[1], out, stop
}

// TestConsoleCommand: the command serves the page on the printed URL and
// stops the machines on cancel.
func TestConsoleCommand(t *testing.T) {
	url, out, stop := startConsole(t, "--listen", "127.0.0.1:0", "--camera", "pattern:only")
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "E-STOP") {
		t.Fatalf("page: %d %q", resp.StatusCode, b)
	}
	if c := stop(); c != 0 {
		t.Fatalf("exit %d: %s", c, out.String())
	}
	if !strings.Contains(out.String(), "machines stopped") {
		t.Fatalf("output %q", out.String())
	}
}

// TestConsoleTokenOffLoopback: off loopback a token is generated and
// printed in the URL; without it the console refuses.
func TestConsoleTokenOffLoopback(t *testing.T) {
	url, out, stop := startConsole(t, "--listen", "0.0.0.0:0", "--servosila", "off", "--furbot", "off", "--camera", "off")
	defer stop()
	if !strings.Contains(url, "?token=") || !strings.Contains(out.String(), "access token generated") {
		t.Fatalf("no token in %q", out.String())
	}
	bare := url[:strings.Index(url, "?")]
	bare = strings.Replace(bare, "0.0.0.0", "127.0.0.1", 1)
	resp, err := http.Get(bare)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without token: %d", resp.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err = c.Get(strings.Replace(url, "0.0.0.0", "127.0.0.1", 1))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.RawQuery != "" {
		t.Fatalf("with the token: %d at %s", resp.StatusCode, resp.Request.URL)
	}
}
