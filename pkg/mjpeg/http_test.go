package mjpeg

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

// part is one JPEG part of an MJPEG response.
type part struct {
	seq   uint64
	stamp string
	jpg   []byte
}

// partReader reads MJPEG parts by their Content-Length, so a part is
// returned as soon as its bytes arrive (mime/multipart would wait for the
// next boundary).
type partReader struct{ tp *textproto.Reader }

func newPartReader(r io.Reader) *partReader {
	return &partReader{textproto.NewReader(bufio.NewReader(r))}
}

func (p *partReader) next() (part, error) {
	line, err := p.tp.ReadLine()
	for err == nil && line == "" { // the CRLF ending the previous part
		line, err = p.tp.ReadLine()
	}
	if err != nil {
		return part{}, err
	}
	if line != "--"+Boundary {
		return part{}, fmt.Errorf("boundary line %q", line)
	}
	h, err := p.tp.ReadMIMEHeader()
	if err != nil {
		return part{}, err
	}
	if ct := h.Get("Content-Type"); ct != "image/jpeg" {
		return part{}, fmt.Errorf("part content type %q", ct)
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil {
		return part{}, fmt.Errorf("content length: %w", err)
	}
	seq, err := strconv.ParseUint(h.Get(HeaderSequence), 10, 64)
	if err != nil {
		return part{}, fmt.Errorf("sequence: %w", err)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(p.tp.R, b); err != nil {
		return part{}, err
	}
	return part{seq: seq, stamp: h.Get(HeaderTimestamp), jpg: b}, nil
}

// viewerCounts records OnViewers calls on a channel.
func viewerCounts(s *Stream) chan int {
	ch := make(chan int, 64)
	s.OnViewers(func(n int) { ch <- n })
	<-ch // the call OnViewers makes at once
	return ch
}

func expectCount(t *testing.T, ch chan int, want int) {
	t.Helper()
	select {
	case n := <-ch:
		if n != want {
			t.Fatalf("OnViewers(%d), want %d", n, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("no OnViewers(%d)", want)
	}
}

// get opens the MJPEG stream at url; cancel ends it.
func get(t *testing.T, url string) (*http.Response, *partReader, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ContentType {
		cancel()
		t.Fatalf("status %s, content type %q", resp.Status, resp.Header.Get("Content-Type"))
	}
	return resp, newPartReader(resp.Body), func() { cancel(); resp.Body.Close() }
}

// Viewers are counted from connect to disconnect, OnViewers follows, and
// a new viewer gets the latest frame at once.
func TestServeHTTPViewers(t *testing.T) {
	s, clk := newTestStream(t, Config{})
	counts := viewerCounts(s)
	srv := httptest.NewServer(s)
	defer srv.Close()

	_, r1, close1 := get(t, srv.URL)
	defer close1()
	expectCount(t, counts, 1)
	stamp := time.Unix(1700000000, 123456000)
	f := yuyvStripes(64, 32, 128, [][3]uint8{yuvRed, yuvBlue})
	f.Header.Stamp = stamp
	s.Feed(f)
	p, err := r1.next()
	if err != nil {
		t.Fatal(err)
	}
	if p.seq != 1 || p.stamp != "1700000000.123456" {
		t.Fatalf("part seq %d stamp %q", p.seq, p.stamp)
	}
	img := decodeJPEG(t, p.jpg)
	checkColour(t, img, 16, 16, rgb{255, 0, 0}, tol)
	checkColour(t, img, 48, 16, rgb{0, 0, 255}, tol)

	_, r2, close2 := get(t, srv.URL)
	expectCount(t, counts, 2)
	if p2, err := r2.next(); err != nil || p2.seq != 1 || string(p2.jpg) != string(p.jpg) {
		t.Fatalf("second viewer's first part: seq %d, err %v; want the latest frame at once", p2.seq, err)
	}
	clk.add(time.Second)
	s.Feed(f)
	for _, r := range []*partReader{r1, r2} {
		if p, err := r.next(); err != nil || p.seq != 2 {
			t.Fatalf("both viewers get frame 2: seq %d, err %v", p.seq, err)
		}
	}
	close2()
	expectCount(t, counts, 1)
	close1()
	expectCount(t, counts, 0)
	if n := s.Viewers(); n != 0 {
		t.Fatalf("%d viewers after both left", n)
	}
}

// smallBufListener shrinks the send buffer of accepted connections, so a
// client that does not read blocks the server's writes within a frame or
// two.
type smallBufListener struct{ net.Listener }

func (l smallBufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// dialStalled opens an MJPEG request on addr with a small receive buffer
// and never reads it. The caller closes it before the server (whose Close
// waits for the request to end).
func dialStalled(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.(*net.TCPConn).SetReadBuffer(4096)
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	return c
}

// noiseFrame returns a 320x240 YUYV frame of random bytes: it compresses
// badly (~60 kB per JPEG), far more than the socket buffers take.
func noiseFrame(seed uint64) *camera.Frame {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	noise := make([]byte, 320*240*2)
	for i := range noise {
		noise[i] = uint8(rng.IntN(256))
	}
	return &camera.Frame{Width: 320, Height: 240, Step: 640, Encoding: "yuv422_yuy2", Data: noise}
}

// A viewer that stops reading blocks only itself: the fast viewer gets
// every frame, the slow one skips frames and, when it reads again, gets
// the latest.
func TestSlowViewerDoesNotBlockFast(t *testing.T) {
	s, clk := newTestStream(t, Config{WriteTimeout: time.Minute})
	counts := viewerCounts(s)
	srv := httptest.NewUnstartedServer(s)
	srv.Listener = smallBufListener{srv.Listener}
	srv.Start()
	defer srv.Close()

	slow := dialStalled(t, srv.Listener.Addr().String())
	defer slow.Close()
	expectCount(t, counts, 1)
	_, fast, closeFast := get(t, srv.URL)
	defer closeFast()
	expectCount(t, counts, 2)

	f := noiseFrame(1)
	const n = 40
	total := 0
	for i := 1; i <= n; i++ {
		clk.add(time.Second)
		s.Feed(f)
		p, err := fast.next()
		if err != nil {
			t.Fatal(err)
		}
		if p.seq != uint64(i) {
			t.Fatalf("fast viewer got frame %d, want %d", p.seq, i)
		}
		total += len(p.jpg)
	}
	if s.Viewers() != 2 {
		t.Fatalf("%d viewers, want 2 (the slow one still connected)", s.Viewers())
	}
	// Now read the slow viewer: it skipped frames and ends on the latest.
	resp, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil {
		t.Fatal(err)
	}
	r := newPartReader(resp.Body)
	got := 0
	for {
		p, err := r.next()
		if err != nil {
			t.Fatal(err)
		}
		got++
		if p.seq == n {
			break
		}
	}
	t.Logf("%d frames, %d kB each: fast viewer got %d, slow viewer %d", n, total/n/1000, n, got)
	if got >= n {
		t.Fatalf("slow viewer got all %d frames: it was never blocked, the test proves nothing", got)
	}
}

func TestSnapshot(t *testing.T) {
	s, _ := newTestStream(t, Config{SnapshotTimeout: time.Minute})
	counts := viewerCounts(s)
	srv := httptest.NewServer(http.HandlerFunc(s.Snapshot))
	defer srv.Close()
	// Nobody watches: the snapshot counts as a viewer until a frame comes.
	go func() {
		if n := <-counts; n == 1 {
			s.Feed(yuyvStripes(64, 32, 128, [][3]uint8{yuvGreen}))
		}
	}()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("status %s type %q: %s", resp.Status, resp.Header.Get("Content-Type"), b)
	}
	checkColour(t, decodeJPEG(t, b), 32, 16, rgb{0, 255, 0}, tol)
	waitFor(t, "the snapshot viewer to leave", func() bool { return s.Viewers() == 0 })
}

func TestSnapshotTimeout(t *testing.T) {
	s, _ := newTestStream(t, Config{SnapshotTimeout: time.Millisecond})
	rec := httptest.NewRecorder()
	s.Snapshot(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "no frame") {
		t.Fatalf("status %d body %q", rec.Code, rec.Body.String())
	}
	if s.Viewers() != 0 {
		t.Fatal("viewer left behind")
	}
}

func TestServeHTTPMethodsAndClose(t *testing.T) {
	s, _ := newTestStream(t, Config{})
	for _, h := range []http.HandlerFunc{s.ServeHTTP, s.Snapshot} {
		rec := httptest.NewRecorder()
		h(rec, httptest.NewRequest(http.MethodPost, "/", nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Fatalf("POST: %d", rec.Code)
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/", nil))
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != ContentType || s.Viewers() != 0 {
		t.Fatalf("HEAD: %d %q viewers %d", rec.Code, rec.Header().Get("Content-Type"), s.Viewers())
	}

	srv := httptest.NewServer(s)
	defer srv.Close()
	resp, r, closeIt := get(t, srv.URL)
	defer closeIt()
	waitFor(t, "a viewer", func() bool { return s.Viewers() == 1 })
	_ = s.Close()
	if _, err := r.next(); err == nil {
		t.Fatal("stream still open after Close")
	}
	resp.Body.Close()
	waitFor(t, "no viewer", func() bool { return s.Viewers() == 0 })
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("after Close: %s", resp.Status)
	}
}

func TestAppendStamp(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Unix(1700000000, 123456789), "1700000000.123456"},
		{time.Unix(5, 1000), "5.000001"},
		{time.Unix(5, 0), "5.000000"},
		{time.Unix(-2, 0), "-2.000000"},
	} {
		if got := string(appendStamp(nil, tc.t)); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.t, got, tc.want)
		}
	}
}

// A viewer that stops reading is disconnected after WriteTimeout, so it no
// longer counts (and no longer keeps the camera streaming).
func TestWriteTimeoutDropsStalledViewer(t *testing.T) {
	s, clk := newTestStream(t, Config{WriteTimeout: 200 * time.Millisecond})
	counts := viewerCounts(s)
	srv := httptest.NewUnstartedServer(s)
	srv.Listener = smallBufListener{srv.Listener}
	srv.Start()
	defer srv.Close()
	defer dialStalled(t, srv.Listener.Addr().String()).Close()
	expectCount(t, counts, 1)
	f := noiseFrame(3)
	// Frames until the server's write to the stalled client blocks and
	// times out; the client never reads.
	waitFor(t, "the stalled viewer to be dropped", func() bool {
		if s.Viewers() == 0 {
			return true
		}
		clk.add(time.Second)
		s.Feed(f)
		return false
	})
	expectCount(t, counts, 0)
}
