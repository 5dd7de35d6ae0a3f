package lkpub

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"

	"github.com/livekit/protocol/auth"

	"github.com/telebridge/telebridge/pkg/video"
)

// nullSource is a Source that must never be subscribed.
type nullSource struct{ t *testing.T }

func (s nullSource) Subscribe(int) (video.Viewer, error) {
	s.t.Error("Subscribe called")
	return nil, errors.New("no")
}

func TestConfigDefaults(t *testing.T) {
	src := nullSource{t}
	c, err := Config{URL: "http://127.0.0.1:7880", APIKey: "k", APISecret: "s", Room: "robot1",
		Cameras: []Camera{{Name: "front", Source: src}, {Name: "rear", Track: "robot1-rear", Source: src}}}.normalize()
	if err != nil {
		t.Fatal(err)
	}
	if c.URL != "ws://127.0.0.1:7880" || c.Identity != DefaultIdentity || c.Name != DefaultIdentity ||
		c.TokenTTL != DefaultTokenTTL || c.MinBackoff != DefaultMinBackoff || c.MaxBackoff != DefaultMaxBackoff ||
		c.ConnectTimeout != DefaultConnectTimeout || c.Depth != DefaultDepth || c.Logger == nil {
		t.Errorf("defaults: %+v", c)
	}
	if c.Cameras[0].Track != "front" || c.Cameras[1].Track != "robot1-rear" {
		t.Errorf("track names %q %q", c.Cameras[0].Track, c.Cameras[1].Track)
	}
	if c, err := (Config{URL: "https://sfu.example:443/x", Token: "t", Cameras: []Camera{{Name: "a", Source: src}}}).normalize(); err != nil || c.URL != "wss://sfu.example:443/x" {
		t.Errorf("token only: %v %q", err, c.URL)
	}
}

func TestConfigRejects(t *testing.T) {
	src := nullSource{t}
	ok := func() Config {
		return Config{URL: "ws://127.0.0.1:7880", APIKey: "k", APISecret: "s", Room: "robot1",
			Cameras: []Camera{{Name: "front", Source: src}}}
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"no URL", func(c *Config) { c.URL = "" }, "URL"},
		{"bad scheme", func(c *Config) { c.URL = "udp://127.0.0.1:7880" }, "scheme"},
		{"no host", func(c *Config) { c.URL = "ws://" }, "no host"},
		{"key and token", func(c *Config) { c.Token = "t" }, "both"},
		{"key without secret", func(c *Config) { c.APISecret = "" }, "secret"},
		{"no credentials", func(c *Config) { c.APIKey, c.APISecret = "", "" }, "no credentials"},
		{"no room", func(c *Config) { c.Room = "" }, "no room"},
		{"bad room", func(c *Config) { c.Room = "a b" }, "room"},
		{"bad identity", func(c *Config) { c.Identity = "x/y" }, "identity"},
		{"short token", func(c *Config) { c.TokenTTL = time.Second }, "token lifetime"},
		{"backoff", func(c *Config) { c.MinBackoff, c.MaxBackoff = time.Second, time.Millisecond }, "backoff"},
		{"negative timeout", func(c *Config) { c.ConnectTimeout = -1 }, "connect timeout"},
		{"depth", func(c *Config) { c.Depth = video.MaxDepth + 1 }, "depth"},
		{"no camera", func(c *Config) { c.Cameras = nil }, "no camera"},
		{"no source", func(c *Config) { c.Cameras[0].Source = nil }, "source"},
		{"bad track", func(c *Config) { c.Cameras[0].Track = "a b" }, "track name"},
		{"same track", func(c *Config) {
			c.Cameras = append(c.Cameras, Camera{Name: "rear", Track: "front", Source: src})
		}, "twice"},
		{"bitrate", func(c *Config) { c.Cameras[0].Bitrate = 200_000_000 }, "bitrate"},
	} {
		c := ok()
		tc.edit(&c)
		_, err := New(c)
		if !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want ErrBadConfig mentioning %q", tc.name, err, tc.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	b := Backoff{Min: 500 * time.Millisecond, Max: 4 * time.Second}
	want := []time.Duration{500, 1000, 2000, 4000, 4000} // [ms], jitter factor 1 at r = 0.5
	for i, w := range want {
		if d := b.Next(0.5); d != w*time.Millisecond {
			t.Errorf("wait %d: %v, want %v", i, d, w*time.Millisecond)
		}
	}
	b.Reset()
	if d := b.Next(0); d != 375*time.Millisecond {
		t.Errorf("after Reset, r=0: %v, want 375ms (0.75 x Min)", d)
	}
	if d := b.Next(0.999999); d < 1249*time.Millisecond || d > 1250*time.Millisecond {
		t.Errorf("r→1: %v, want just under 1.25 s (1.25 x 1 s)", d)
	}
	if d := b.Next(7); d != 2500*time.Millisecond { // r clamped to 1
		t.Errorf("r=7: %v, want 2.5 s", d)
	}
}

// TestTokens checks the grants: the publisher may publish and nothing
// else, the subscriber may subscribe and nothing else, both only in their
// room and both signed with the key.
func TestTokens(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mint     func() (string, error)
		pub, sub bool
	}{
		{"publisher", func() (string, error) { return PublisherToken("key1", "secret1", "robot1", "bot", "Robot", time.Hour) }, true, false},
		{"subscriber", func() (string, error) { return SubscriberToken("key1", "secret1", "robot1", "op", time.Hour) }, false, true},
	} {
		tok, err := tc.mint()
		if err != nil {
			t.Fatal(err)
		}
		v, err := auth.ParseAPIToken(tok)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := v.Verify("wrong"); err == nil {
			t.Errorf("%s: verifies with the wrong secret", tc.name)
		}
		claims, g, err := v.Verify("secret1")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		vg := g.Video
		if v.APIKey() != "key1" || vg == nil || !vg.RoomJoin || vg.Room != "robot1" || vg.RoomAdmin || vg.RoomCreate ||
			vg.GetCanPublish() != tc.pub || vg.GetCanSubscribe() != tc.sub || vg.GetCanPublishData() {
			t.Errorf("%s: key %q grants %+v", tc.name, v.APIKey(), vg)
		}
		if ttl := claims.ExpiresAt.Sub(claims.NotBefore.Time); ttl != time.Hour {
			t.Errorf("%s: valid for %v, want 1h", tc.name, ttl)
		}
	}
}

// TestRunGivesUpOnlyWithContext: with nothing listening, Run keeps
// retrying (counting failures, subscribing no camera) until its context
// ends, then returns nil.
func TestRunGivesUpOnlyWithContext(t *testing.T) {
	ln := freePort(t, "tcp") // nothing listens there now
	p, err := New(Config{URL: "ws://127.0.0.1:" + strconv.Itoa(ln), APIKey: "k", APISecret: "s", Room: "r",
		Cameras: []Camera{{Name: "front", Source: nullSource{t}}}, MinBackoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()
	runtest.WaitFor(t, 20*time.Second, "three failed attempts", func() bool { return p.Stats().Failures >= 3 })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v, want nil after cancel", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return 10 s after its context ended")
	}
	st := p.Stats()
	if st.Connected || st.Connects != 0 || !strings.Contains(st.LastErr, "join") {
		t.Errorf("stats %+v", st)
	}
}
