package peer

import (
	"errors"
	"net"
	"testing"
	"time"
)

// gatedPair opens a gated socket on loopback (hold: how long after a
// picture it stays gated) and a plain socket that sends to it. The gated
// socket's reader runs in its own goroutine and hands each datagram to
// the returned channel, which it closes after the error that ended it
// (in *readErr).
func gatedPair(t testing.TB, hold time.Duration, readErr *error) (*readGate, *gatedConn, *net.UDPConn, <-chan string) {
	t.Helper()
	g := &readGate{hold: hold}
	n, err := newGatedNet(g)
	if err != nil {
		t.Fatal(err)
	}
	uc, err := n.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	c := uc.(*gatedConn)
	t.Cleanup(func() { _ = c.Close() })
	tx, err := net.DialUDP("udp4", nil, c.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Close() })
	got := make(chan string, 16)
	go func() {
		buf := make([]byte, 1500)
		for {
			n, _, err := c.ReadFromAddrPort(buf)
			if err != nil {
				if readErr != nil {
					*readErr = err
				}
				close(got)
				return
			}
			got <- string(buf[:n])
		}
	}()
	return g, c, tx, got
}

func send(t *testing.T, tx *net.UDPConn, s string) {
	t.Helper()
	if _, err := tx.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
}

// expect waits (up to 5 s) for the reader to hand over want.
func expect(t *testing.T, got <-chan string, want, when string) {
	t.Helper()
	select {
	case s := <-got:
		if s != want {
			t.Fatalf("%s: read %q, want %q", when, s, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: %q not read within 5 s", when, want)
	}
}

// expectNothing checks that the reader hands over nothing for 100 ms.
// Nothing but a picture or a change of mode may wake a gated reader, so
// a slow machine cannot make this fail; a broken gate does.
func expectNothing(t *testing.T, got <-chan string, when string) {
	t.Helper()
	select {
	case s := <-got:
		t.Fatalf("%s: read %q before the next picture", when, s)
	case <-time.After(100 * time.Millisecond):
	}
}

// waitWaiting waits until the reader has found the socket empty and waits
// for a picture (a datagram sent before that is read without one).
func waitWaiting(t *testing.T, c *gatedConn) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !c.waiting.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the reader never waited for a picture")
		}
		time.Sleep(time.Millisecond)
	}
}

// toWaiting brings the reader to wait for a picture: a picture, a datagram
// (read at once by a reader blocked in the read since before the picture,
// or after the next picture by one that found the socket empty), the next
// picture, and then the reader finds the socket empty.
func toWaiting(t *testing.T, g *readGate, c *gatedConn, tx *net.UDPConn, got <-chan string) {
	t.Helper()
	g.picture()
	send(t, tx, "sync")
	g.picture()
	expect(t, got, "sync", "bringing the reader to wait")
	waitWaiting(t, c)
}

// TestGateReadsAfterPicture: before any picture a datagram is read as it
// arrives; once pictures come, a datagram waits for the next picture and
// is read then, in order with those that came with it.
func TestGateReadsAfterPicture(t *testing.T) {
	g, c, tx, got := gatedPair(t, time.Hour, nil)
	send(t, tx, "before any picture")
	expect(t, got, "before any picture", "no picture yet")

	toWaiting(t, g, c, tx, got)
	send(t, tx, "one")
	send(t, tx, "two")
	expectNothing(t, got, "gated")
	g.picture()
	expect(t, got, "one", "after the picture")
	expect(t, got, "two", "after the picture")
	waitWaiting(t, c)
	g.picture() // nothing waiting: nothing read
	expectNothing(t, got, "a picture with nothing waiting")
	send(t, tx, "three")
	expectNothing(t, got, "gated again")
	g.picture()
	expect(t, got, "three", "after the next picture")
}

// TestGateEmptyDatagram: an empty datagram (anyone may send one to the
// socket) waits for the next picture like any other, and does not hold
// back the one behind it.
func TestGateEmptyDatagram(t *testing.T) {
	g, c, tx, got := gatedPair(t, time.Hour, nil)
	toWaiting(t, g, c, tx, got)
	send(t, tx, "")
	send(t, tx, "behind it")
	expectNothing(t, got, "gated")
	g.picture()
	expect(t, got, "", "after the picture")
	expect(t, got, "behind it", "after the picture")
}

// TestGateHoldExpires: when pictures stop for the hold time, a waiting
// datagram is read without one.
func TestGateHoldExpires(t *testing.T) {
	const hold = 50 * time.Millisecond
	g, _, tx, got := gatedPair(t, hold, nil)
	g.picture()
	send(t, tx, "sync")
	g.picture()
	expect(t, got, "sync", "the read that was waiting")
	send(t, tx, "late")
	expect(t, got, "late", "no picture for the hold time")
}

// TestGatePrompt: a prompt session's socket is read as datagrams arrive;
// making a session prompt frees the datagram waiting for a picture, and
// making it gated again waits for pictures again.
func TestGatePrompt(t *testing.T) {
	g, c, tx, got := gatedPair(t, time.Hour, nil)
	toWaiting(t, g, c, tx, got)
	send(t, tx, "waiting")
	expectNothing(t, got, "gated")
	g.setPrompt(true)
	expect(t, got, "waiting", "made prompt")
	send(t, tx, "prompt")
	expect(t, got, "prompt", "prompt, no picture")

	g.setPrompt(false)
	toWaiting(t, g, c, tx, got)
	send(t, tx, "gated")
	expectNothing(t, got, "gated again")
	g.picture()
	expect(t, got, "gated", "after the picture")
}

// TestGateClose: closing the socket ends a reader waiting for a picture
// with net.ErrClosed, and the gate forgets the socket.
func TestGateClose(t *testing.T) {
	var readErr error
	g, c, tx, got := gatedPair(t, time.Hour, &readErr)
	toWaiting(t, g, c, tx, got)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case s, ok := <-got:
		if ok {
			t.Fatalf("read %q after close", s)
		}
		if !errors.Is(readErr, net.ErrClosed) {
			t.Errorf("read after close: %v, want net.ErrClosed", readErr)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a waiting read did not end on close")
	}
	g.mu.Lock()
	n := len(g.conns)
	g.mu.Unlock()
	if n != 0 {
		t.Errorf("the gate holds %d sockets after close, want 0", n)
	}
}

// TestGatePictureAllocs: a picture allocates nothing (it comes with every
// access unit of every watcher).
func TestGatePictureAllocs(t *testing.T) {
	g, _, _, _ := gatedPair(t, time.Hour, nil)
	if a := testing.AllocsPerRun(1000, g.picture); a != 0 {
		t.Errorf("picture: %v allocations, want 0", a)
	}
}

// BenchmarkGatePicture: the cost a watcher's socket adds to each picture
// (one poll of the socket and a timer reset).
func BenchmarkGatePicture(b *testing.B) {
	g, _, _, _ := gatedPair(b, time.Hour, nil)
	b.ReportAllocs()
	for b.Loop() {
		g.picture()
	}
}

// TestSharedSocketPrompt: Config.UDP, which every session shares, is read
// as datagrams arrive while any session is prompt, and after pictures
// once none is (the last prompt one made a watcher or closed).
func TestSharedSocketPrompt(t *testing.T) {
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(cameras(nil))
	cfg.UDP = udp
	s := newServer(t, cfg)
	open := func() *Session {
		ss, err := s.NewSession(SessionConfig{Send: func(Message) {}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ss.Close)
		return ss
	}
	a, b := open(), open()
	check := func(want bool, when string) {
		t.Helper()
		if got := s.gate.prompt.Load(); got != want {
			t.Errorf("%s: shared socket prompt %v, want %v", when, got, want)
		}
	}
	check(false, "two watchers")
	a.SetPrompt(true)
	check(true, "a prompt")
	b.SetPrompt(true)
	a.SetPrompt(false)
	check(true, "b prompt, a a watcher")
	b.SetPrompt(true) // again: counted once
	b.Close()
	<-b.Done()
	check(false, "the prompt session closed")
	b.SetPrompt(true) // after Close: no effect
	check(false, "SetPrompt after Close")
	if st := a.Stats(); st.Prompt {
		t.Error("a's Stats: prompt, want a watcher")
	}
}
