package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
	"github.com/telebridge/telebridge/pkg/console/access"
)

var urlRe = regexp.MustCompile(`open (https?://\S+)`)

// startConsole runs `telebridge console args...` until the returned
// cancel, and returns the URL it printed.
func startConsole(t *testing.T, args ...string) (string, *syncbuf.Buffer, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stateDir := t.TempDir()
	out := &syncbuf.Buffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"console", "--state-dir", stateDir}, args...), stdio{in: strings.NewReader(""), out: out, err: io.Discard})
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
// printed in the URL, and TLS is on with a self-signed certificate whose
// fingerprint is printed; without the token the console refuses.
func TestConsoleTokenOffLoopback(t *testing.T) {
	url, out, stop := startConsole(t, "--listen", "0.0.0.0:0", "--servosila", "off", "--furbot", "off", "--camera", "off")
	defer stop()
	if !strings.Contains(url, "?token=") || !strings.Contains(out.String(), "access token generated") {
		t.Fatalf("no token in %q", out.String())
	}
	fp := regexp.MustCompile(`SHA-256 fingerprint ([0-9A-F:]{95})`).FindStringSubmatch(out.String())
	if !strings.HasPrefix(url, "https://") || fp == nil {
		t.Fatalf("no TLS or no fingerprint: %q", out.String())
	}
	// The client trusts the certificate by its printed fingerprint, as an
	// operator compares it with the browser's.
	tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true, VerifyConnection: func(cs tls.ConnectionState) error {
		if got := access.Fingerprint(cs.PeerCertificates[0].Raw); got != fp[1] {
			return fmt.Errorf("fingerprint %s, printed %s", got, fp[1])
		}
		return nil
	}}}
	bare := url[:strings.Index(url, "?")]
	resp, err := (&http.Client{Transport: tr}).Get(bare)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without token: %d", resp.StatusCode)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Transport: tr}
	resp, err = c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.RawQuery != "" {
		t.Fatalf("with the token: %d at %s", resp.StatusCode, resp.Request.URL)
	}
}

// TestConsoleFlagsRefused: `--token x`, and the long but chosen
// tokens, are refused with how to make one; so are --insecure with --tls,
// a half certificate, and a camera size or rate out of range.
func TestConsoleFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--token", "x"}, "telebridge token new"},
		{[]string{"--listen", "0.0.0.0:0", "--insecure", "--token", "00000000000000000000000000000000"}, "not a console token"},
		{[]string{"--listen", "0.0.0.0:0", "--insecure", "--token", "passwordpasswordpasswordpassword"}, "not a console token"},
		{[]string{"--insecure", "--tls"}, "exclude each other"},
		{[]string{"--cert", "c.pem"}, "go together"},
		{[]string{"--tokens", "/nonexistent/tokens.yaml"}, "tokens file"},
		{[]string{"--camera-fps", "0"}, "camera rate 0 Hz"},
		{[]string{"--camera-fps", "2000"}, "camera rate 2000 Hz"},
		{[]string{"--camera-width", "641"}, "camera size 641x480"},
		{[]string{"--camera-height", "8"}, "camera size 640x8"},
	} {
		var out, errb syncbuf.Buffer
		code := run(context.Background(), append([]string{"console", "--state-dir", t.TempDir(), "--servosila", "off", "--furbot", "off", "--camera", "off"}, c.args...),
			stdio{in: strings.NewReader(""), out: &out, err: &errb})
		if code == 0 || !strings.Contains(errb.String()+out.String(), c.says) {
			t.Errorf("%v: exit %d, output %q %q, want it to say %q", c.args, code, out.String(), errb.String(), c.says)
		}
	}
}

// TestConsolePlainHTTPOffLoopback: --insecure serves plain HTTP off
// loopback, and says so.
func TestConsolePlainHTTPOffLoopback(t *testing.T) {
	url, out, stop := startConsole(t, "--listen", "0.0.0.0:0", "--insecure", "--audit", "off", "--servosila", "off", "--furbot", "off", "--camera", "off")
	defer stop()
	if !strings.HasPrefix(url, "http://") || !strings.Contains(out.String(), "plain HTTP off loopback") {
		t.Fatalf("%s: %q", url, out.String())
	}
}

// TestTokenCommand: `telebridge token new` prints a token that `token
// check` and the console accept, and the console says at start-up what it
// accepted; `token check` refuses a made-up one and says why.
func TestTokenCommand(t *testing.T) {
	var out, errb syncbuf.Buffer
	if code := run(context.Background(), []string{"token", "new"}, stdio{in: strings.NewReader(""), out: &out, err: &errb}); code != 0 {
		t.Fatalf("token new: exit %d, %q", code, errb.String())
	}
	tok := strings.TrimSpace(out.String())
	if err := access.CheckToken(tok); err != nil {
		t.Fatalf("token new printed %q: %v", tok, err)
	}
	var out2, errb2 syncbuf.Buffer
	if code := run(context.Background(), []string{"token", "check", tok}, stdio{in: strings.NewReader(""), out: &out2, err: &errb2}); code != 0 || !strings.Contains(out2.String(), "accepted") {
		t.Fatalf("token check of a new token: exit %d, %q %q", code, out2.String(), errb2.String())
	}
	var out3, errb3 syncbuf.Buffer
	if code := run(context.Background(), []string{"token", "check", access.TokenPrefix + strings.Repeat("a", 32)}, stdio{in: strings.NewReader(""), out: &out3, err: &errb3}); code == 0 || !strings.Contains(errb3.String(), "checksum") {
		t.Fatalf("token check of a made-up token: exit %d, %q", code, errb3.String())
	}
	_, printed, stop := startConsole(t, "--listen", "0.0.0.0:0", "--insecure", "--audit", "off", "--token", tok, "--servosila", "off", "--furbot", "off", "--camera", "off")
	defer stop()
	if !strings.Contains(printed.String(), "accepted: "+access.TokenAccepted) {
		t.Fatalf("start-up does not say the token was accepted: %q", printed.String())
	}
}
