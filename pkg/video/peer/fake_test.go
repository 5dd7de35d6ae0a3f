package peer

import (
	"bytes"
	"errors"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/video"
)

// splitNALs returns the NAL units of an Annex-B stream, without start
// codes.
func splitNALs(b []byte) [][]byte {
	var out [][]byte
	start := -1
	for i := 0; i+2 < len(b); i++ {
		if b[i] == 0 && b[i+1] == 0 && b[i+2] == 1 {
			if start >= 0 {
				end := i
				if end > start && b[end-1] == 0 {
					end--
				}
				out = append(out, b[start:end])
			}
			start = i + 3
			i += 2
		}
	}
	if start >= 0 && start < len(b) {
		out = append(out, b[start:])
	}
	return out
}

// loadFixture splits testdata/tiny.h264 (160x120 constrained baseline,
// made with Debian's ffmpeg and libx264, a keyframe every 5 pictures)
// into access units.
func loadFixture(t testing.TB) []video.AccessUnit {
	t.Helper()
	raw, err := os.ReadFile("testdata/tiny.h264")
	if err != nil {
		t.Fatal(err)
	}
	var aus []video.AccessUnit
	var cur []byte
	key, slice := false, false
	flush := func() {
		if cur != nil {
			aus = append(aus, video.AccessUnit{Data: cur, Key: key, Duration: time.Second / 30})
		}
		cur, key, slice = nil, false, false
	}
	for _, n := range splitNALs(raw) {
		typ := n[0] & 0x1f
		if typ == 7 || (slice && (typ == 1 || typ == 5)) {
			flush()
		}
		cur = append(cur, 0, 0, 0, 1)
		cur = append(cur, n...)
		if typ == 5 {
			key = true
		}
		if typ == 1 || typ == 5 {
			slice = true
		}
	}
	flush()
	if len(aus) < 2 || !aus[0].Key {
		t.Fatalf("fixture: %d access units, first key %v", len(aus), len(aus) > 0 && aus[0].Key)
	}
	return aus
}

// fakeSource emits the fixture's access units in a loop to each viewer,
// every interval, starting with the first (a keyframe); a keyframe request
// makes a viewer jump to the next keyframe. With pad, each access unit is
// padded (an SEI NAL unit) to the viewer's wanted bitrate.
type fakeSource struct {
	aus      []video.AccessUnit
	interval time.Duration
	pad      bool
	// fixed, if set, is the bitrate padded to instead of the wanted one
	// [bit/s] (a source that ignores WantBitrate, like a passthrough camera).
	fixed int
	// captureStep, if set, stamps the n-th access unit a viewer gets with
	// the capture time base + n*captureStep instead of the wall clock.
	captureStep time.Duration

	subscribed, keyRequests atomic.Int64
	mu                      sync.Mutex
	viewers                 []*fakeViewer
}

func newFakeSource(t testing.TB) *fakeSource {
	return &fakeSource{aus: loadFixture(t), interval: time.Second / 30}
}

func (s *fakeSource) Subscribe(depth int) (video.Viewer, error) {
	v := &fakeViewer{src: s, ch: make(chan video.AccessUnit, depth), key: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	s.subscribed.Add(1)
	s.mu.Lock()
	s.viewers = append(s.viewers, v)
	s.mu.Unlock()
	go v.run()
	return v, nil
}

// want returns the latest bitrate wanted by any viewer [bit/s].
func (s *fakeSource) want() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := 0
	for _, v := range s.viewers {
		if x := int(v.want.Load()); x > 0 {
			w = x
		}
	}
	return w
}

type fakeViewer struct {
	src  *fakeSource
	ch   chan video.AccessUnit
	key  chan struct{}
	want atomic.Int64
	once sync.Once
	stop chan struct{}
	done chan struct{}
}

func (v *fakeViewer) run() {
	defer close(v.done)
	defer close(v.ch)
	t := time.NewTicker(v.src.interval)
	defer t.Stop()
	i, n := 0, 0
	for {
		select {
		case <-v.key:
			for i++; !v.src.aus[i%len(v.src.aus)].Key; i++ {
			}
		default:
		}
		au := v.src.aus[i%len(v.src.aus)]
		au.Capture = time.Now()
		if v.src.captureStep > 0 {
			au.Capture = time.Unix(1000, 0).Add(time.Duration(n) * v.src.captureStep)
		}
		n++
		if v.src.pad {
			rate := int(v.want.Load())
			if v.src.fixed > 0 {
				rate = v.src.fixed
			}
			au.Data = padTo(au.Data, int(float64(rate)/8*v.src.interval.Seconds()))
		}
		select {
		case v.ch <- au:
		default:
		}
		i++
		select {
		case <-t.C:
		case <-v.stop:
			return
		}
	}
}

// padTo appends an SEI NAL unit so that b is about n bytes long.
func padTo(b []byte, n int) []byte {
	if n <= len(b)+8 {
		return b
	}
	out := append(append([]byte(nil), b...), 0, 0, 0, 1, 6)
	return append(out, bytes.Repeat([]byte{0x55}, n-len(out))...)
}

func (v *fakeViewer) AccessUnits() <-chan video.AccessUnit { return v.ch }
func (v *fakeViewer) WantBitrate(bps int)                  { v.want.Store(int64(bps)) }
func (v *fakeViewer) RequestKeyFrame() {
	v.src.keyRequests.Add(1)
	select {
	case v.key <- struct{}{}:
	default:
	}
}
func (v *fakeViewer) Close() {
	v.once.Do(func() { close(v.stop) })
	<-v.done
}

// cameras is an OpenFunc over a fixed set of sources.
func cameras(srcs map[string]*fakeSource) OpenFunc {
	return func(name string, _ Caps) (video.Source, error) {
		s, ok := srcs[name]
		if !ok {
			return nil, errors.New("no such camera")
		}
		return s, nil
	}
}
