package mjpeg

import (
	"fmt"
	"image/jpeg"
	"time"

	"github.com/telebridge/telebridge/pkg/bulkcpu"
)

// raw is a frame copied out of the camera's buffer for the encoder.
type raw struct {
	p                   *pixFormat
	width, height, step int
	stamp               time.Time
	data                []byte
}

// encodeLoop is the encoder goroutine: it takes the pending frame,
// converts and encodes it, publishes it, and exits when nobody watches.
func (s *Stream) encodeLoop() {
	for {
		s.mu.Lock()
		for !s.pendingReady && s.nViewers > 0 && !s.closed {
			s.wake.Wait()
		}
		if s.nViewers == 0 || s.closed {
			s.encoding = false
			s.pendingReady = false
			s.mu.Unlock()
			return
		}
		s.pending, s.work = s.work, s.pending
		s.pendingReady = false
		s.mu.Unlock()
		s.encodeOne(&s.work)
	}
}

// encodeOne turns r into a JPEG and publishes it. Runs on the encoder.
func (s *Stream) encodeOne(r *raw) {
	if r.p.kind == kindJPEG {
		s.publish(r.data, r.stamp, r.width, r.height, 0, true)
		return
	}
	// Bulk work: it leaves a processor to latency-critical goroutines
	// (pkg/bulkcpu).
	bulkcpu.Acquire()
	start := time.Now()
	f, w, h := outSize(r.p, r.width, r.height, s.cfg.MaxWidth)
	img := s.conv.convert(r.p, r.data, r.width, r.height, r.step, f, w, h)
	s.enc.b = s.enc.b[:0]
	err := jpeg.Encode(&s.enc, img, &s.opts)
	bulkcpu.Release()
	if err != nil {
		// image/jpeg fails only on images larger than 65535 px, which
		// checkFrame excludes; count it like a bad frame all the same.
		s.mu.Lock()
		s.bad++
		s.lastErr = fmt.Errorf("mjpeg: %s: encode: %w", s.name, err)
		s.mu.Unlock()
		return
	}
	s.publish(s.enc.b, r.stamp, w, h, time.Since(start), false)
}

// publish makes jpg (copied) the latest frame and wakes every viewer.
func (s *Stream) publish(jpg []byte, stamp time.Time, w, h int, took time.Duration, passed bool) {
	now := s.now()
	s.outMu.Lock()
	s.out = append(s.out[:0], jpg...)
	s.outStamp, s.outW, s.outH = stamp, w, h
	s.outSeq++
	s.encoded++
	if passed {
		s.passed++
	} else {
		s.lastEnc = took
		s.sumEnc += took
		s.nEnc++
	}
	copy(s.ring[1:], s.ring[:len(s.ring)-1])
	s.ring[0] = pub{at: now, bytes: len(jpg)}
	s.ringN = min(s.ringN+1, len(s.ring))
	s.outMu.Unlock()

	s.mu.Lock()
	for v := range s.set {
		select {
		case v.wake <- struct{}{}:
		default: // it has not taken the previous one yet: latest wins
		}
	}
	s.mu.Unlock()
}

// Latest returns a copy of the latest published JPEG and the capture time
// of its frame, or false if none was published yet. It does not make
// anyone watch: with no viewer the image may be old (see Snapshot).
func (s *Stream) Latest() ([]byte, time.Time, bool) {
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	if s.outSeq == 0 {
		return nil, time.Time{}, false
	}
	return append([]byte(nil), s.out...), s.outStamp, true
}

// latestInto copies the latest JPEG into buf if it is newer than seq and
// returns the buffer, its sequence number and capture time.
func (s *Stream) latestInto(buf []byte, seq uint64) ([]byte, uint64, time.Time, bool) {
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	if s.outSeq == seq {
		return buf, seq, time.Time{}, false
	}
	return append(buf[:0], s.out...), s.outSeq, s.outStamp, true
}

// jpegBuf is the encoder's output: a reused byte slice that image/jpeg
// writes into directly (it has Flush and WriteByte, so jpeg.Encode adds
// no bufio.Writer of its own).
type jpegBuf struct{ b []byte }

func (j *jpegBuf) Write(p []byte) (int, error) { j.b = append(j.b, p...); return len(p), nil }
func (j *jpegBuf) WriteByte(c byte) error      { j.b = append(j.b, c); return nil }
func (j *jpegBuf) Flush() error                { return nil }
