//go:build linux && cgo

package lkpub

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/runtest"

	"github.com/telebridge/telebridge/pkg/video"
)

// TestLiveKitPublishes runs a real livekit-server --dev on loopback. The
// publisher starts first, with no server there: it retries with backoff
// and nothing is encoded. Once the server runs, two pattern cameras are
// published as two H.264 tracks; a second participant subscribes, decodes
// both with ffmpeg and reads the cameras' frame codes, which must advance.
// Then the server is killed and started again on the same ports: the
// publisher gets back into the room by itself and a new subscriber sees
// the codes advance past the ones before.
func TestLiveKitPublishes(t *testing.T) {
	srv := newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var wg sync.WaitGroup
	defer wg.Wait()
	var cams []Camera
	var sources []*video.Camera
	for _, name := range []string{"front", "rear"} {
		cam, err := video.OpenCamera(video.CameraConfig{Name: name, Device: "pattern:" + name, Width: 640, Height: 480,
			FrameRate: 30, Stream: video.Config{FrameCode: true, Bitrate: 800_000}})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() { defer wg.Done(); _ = cam.Run(ctx) }()
		cams = append(cams, Camera{Name: name, Track: "robot1-" + name, Source: cam})
		sources = append(sources, cam)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	pub, err := New(Config{URL: srv.URL(), APIKey: devKey, APISecret: devSecret, Room: "robot1", Identity: "robot1",
		Cameras: cams, MinBackoff: 200 * time.Millisecond, MaxBackoff: time.Second, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	runErr := make(chan error, 1)
	go func() { runErr <- pub.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-runErr; err != nil {
			t.Errorf("Run: %v", err)
		}
	}()

	// No server yet: failures, backoff, and no camera encodes.
	runtest.WaitFor(t, 30*time.Second, "two failed attempts", func() bool { return pub.Stats().Failures >= 2 })
	for i, c := range sources {
		if st := c.Stats(); st.Viewers != 0 || st.Encoded != 0 {
			t.Errorf("%s: %d viewers, %d access units encoded while not connected; want none", cams[i].Name, st.Viewers, st.Encoded)
		}
	}
	srv.start()
	runtest.WaitFor(t, 30*time.Second, "the publisher to connect", func() bool { return pub.Stats().Connected })
	last := watch(t, srv, "viewer1", nil)

	// The SFU goes away: the publisher notices and retries.
	srv.stop()
	runtest.WaitFor(t, 30*time.Second, "the publisher to notice the lost server", func() bool { return !pub.Stats().Connected })
	srv.start()
	runtest.WaitFor(t, 60*time.Second, "the publisher to reconnect", func() bool {
		st := pub.Stats()
		return st.Connected && st.Connects+st.Resumes >= 2
	})
	watch(t, srv, "viewer2", last)

	st := pub.Stats()
	t.Logf("publisher: %d connects, %d resumes, %d failures (last: %q)", st.Connects, st.Resumes, st.Failures, st.LastErr)
	for _, c := range st.Cameras {
		t.Logf("  %s as %s: %d access units (%d keyframes), %d bytes, %d keyframe requests, %d write errors",
			c.Name, c.Track, c.AccessUnits, c.Keyframes, c.Bytes, c.KeyRequests, c.WriteErrors)
		if c.AccessUnits == 0 || c.Keyframes == 0 {
			t.Errorf("%s: nothing published", c.Name)
		}
	}
}

// watch joins as a subscriber and waits until every track has shown want
// decoded pictures whose frame codes advance: each counter 1..maxGap after
// the one before, never repeated or backwards. Pictures go missing only
// when the machine is loaded (the encoder skips frames it has no time
// for; a picture damaged by a lost packet, and those after it up to the
// next keyframe, fail the code's CRC), so the gap allows a keyframe
// interval and more. after, if not nil, holds codes seen earlier that
// these must follow. It returns the last counter per track.
func watch(t *testing.T, srv *lkServer, identity string, after map[string]uint16) map[string]uint16 {
	t.Helper()
	const (
		want   = 45 // pictures per track, 1.5 s at 30 fps
		maxGap = 90 // [frames] 3 s at 30 fps: keyframes come every 2 s
	)
	sub := newSubscriber(t, srv.URL(), "robot1", identity)
	defer sub.close()
	tracks := []string{"robot1-front", "robot1-rear"}
	seen := map[string]int{}
	prev := map[string]uint16{}
	start := time.Now()
	deadline := time.NewTimer(60 * time.Second)
	defer deadline.Stop()
	for seen[tracks[0]] < want || seen[tracks[1]] < want {
		select {
		case r := <-sub.codes:
			if p, ok := prev[r.track]; ok {
				if d := r.code.Counter - p; d < 1 || d > maxGap {
					t.Errorf("%s: frame %d after %d", r.track, r.code.Counter, p)
				}
			} else if a, ok := after[r.track]; ok {
				if d := r.code.Counter - a; d < 1 || d > 30000 {
					t.Errorf("%s: first frame %d does not follow %d seen before the restart", r.track, r.code.Counter, a)
				}
			}
			if r.code.Time().Before(start.Add(-time.Minute)) || r.code.Time().After(r.at.Add(time.Second)) {
				t.Errorf("%s: frame %d stamped %v, decoded %v", r.track, r.code.Counter, r.code.Time(), r.at)
			}
			prev[r.track] = r.code.Counter
			seen[r.track]++
		case <-deadline.C:
			t.Fatalf("%s: after 60 s, pictures decoded per track: %v (want %d each)", identity, seen, want)
		}
	}
	for _, tr := range tracks {
		if m := sub.mime(tr); m != "video/H264" {
			t.Errorf("%s: codec %q, want video/H264", tr, m)
		}
	}
	t.Logf("%s: %d pictures per track with advancing codes in %v (last: %v)", identity, want, time.Since(start).Round(time.Millisecond), prev)
	return prev
}
