package mjpeg

import (
	"errors"
	"net/http"
	"strconv"
	"time"
)

// Boundary separates the parts of the multipart/x-mixed-replace response.
const Boundary = "telebridgeframe"

// ContentType is the Content-Type of the MJPEG response.
const ContentType = "multipart/x-mixed-replace; boundary=" + Boundary

// Part headers besides Content-Type and Content-Length, on every JPEG part.
const (
	// HeaderSequence is the stream's number of the published frame
	// (1, 2, ...); a gap means frames this viewer skipped.
	HeaderSequence = "X-Sequence"
	// HeaderTimestamp is the frame's capture time, Unix seconds with
	// microseconds ("1700000000.123456").
	HeaderTimestamp = "X-Timestamp"
)

// ServeHTTP serves the stream as MJPEG (multipart/x-mixed-replace, one
// image/jpeg part per frame) to one viewer for the request's lifetime:
// the viewer counts from the request's start until the client
// disconnects, the request's context ends, a write takes longer than
// Config.WriteTimeout, or Close. The latest frame, if any, is sent at
// once. A slow viewer skips frames (it always gets the latest when it can
// take one) and never slows other viewers or the camera. GET and HEAD
// only; 503 after Close.
func (s *Stream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h := w.Header()
	h.Set("Content-Type", ContentType)
	h.Set("Cache-Control", "no-cache, no-store, must-revalidate")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	v, err := s.addViewer()
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer s.removeViewer(v)
	rc := http.NewResponseController(w)
	w.WriteHeader(http.StatusOK)
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return
	}
	var (
		jpg   []byte // this viewer's copy of the frame: the write holds no lock
		hdr   []byte
		seq   uint64
		fresh bool
		stamp time.Time
	)
	// The latest frame at once, if any: a new viewer sees something before
	// the next encode.
	jpg, seq, stamp, fresh = s.latestInto(jpg, seq)
	for {
		if fresh {
			hdr = partHeader(hdr[:0], len(jpg), seq, stamp)
			if err := s.writePart(w, rc, hdr, jpg); err != nil {
				return
			}
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-v.wake:
		}
		jpg, seq, stamp, fresh = s.latestInto(jpg, seq)
	}
}

// writePart writes one part within the write timeout and flushes it.
func (s *Stream) writePart(w http.ResponseWriter, rc *http.ResponseController, hdr, jpg []byte) error {
	if err := rc.SetWriteDeadline(time.Now().Add(s.cfg.WriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	if _, err := w.Write(jpg); err != nil {
		return err
	}
	if _, err := w.Write(crlf); err != nil {
		return err
	}
	if err := rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

var crlf = []byte("\r\n")

// partHeader appends the boundary and the headers of one part to b.
func partHeader(b []byte, n int, seq uint64, stamp time.Time) []byte {
	b = append(b, "--"+Boundary+"\r\nContent-Type: image/jpeg\r\nContent-Length: "...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, "\r\n"+HeaderSequence+": "...)
	b = strconv.AppendUint(b, seq, 10)
	if !stamp.IsZero() {
		b = append(b, "\r\n"+HeaderTimestamp+": "...)
		b = appendStamp(b, stamp)
	}
	return append(b, "\r\n\r\n"...)
}

// Snapshot serves one JPEG (image/jpeg): the latest frame if it is recent
// (published within two periods of Rate while someone watches); otherwise
// the request counts as a viewer (so OnViewers starts the camera) until a
// new frame is published, at most Config.SnapshotTimeout, then 503.
func (s *Stream) Snapshot(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	jpg, stamp, ok := s.recent()
	if !ok {
		// The sequence number before registering: a frame published as
		// soon as the viewer counts is a fresh one.
		seq := s.seqNow()
		v, err := s.addViewer()
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		t := time.NewTimer(s.cfg.SnapshotTimeout)
		for !ok {
			select {
			case <-r.Context().Done():
			case <-s.done:
			case <-t.C:
			case <-v.wake:
				jpg, _, stamp, ok = s.latestInto(nil, seq)
				continue
			}
			break
		}
		t.Stop()
		s.removeViewer(v)
		if !ok {
			http.Error(w, "mjpeg: "+s.name+": no frame within "+s.cfg.SnapshotTimeout.String(), http.StatusServiceUnavailable)
			return
		}
	}
	h := w.Header()
	h.Set("Content-Type", "image/jpeg")
	h.Set("Content-Length", strconv.Itoa(len(jpg)))
	h.Set("Cache-Control", "no-cache, no-store, must-revalidate")
	if !stamp.IsZero() {
		h.Set(HeaderTimestamp, string(appendStamp(nil, stamp)))
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(jpg)
}

// appendStamp appends t as Unix seconds with six decimals
// ("1700000000.000123"), the form of HeaderTimestamp.
func appendStamp(b []byte, t time.Time) []byte {
	us := t.UnixMicro()
	if us < 0 {
		b = append(b, '-')
		us = -us
	}
	b = strconv.AppendInt(b, us/1e6, 10)
	b = append(b, '.')
	frac := us % 1e6
	for d := int64(100000); d > 1 && frac < d; d /= 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, frac, 10)
}

// seqNow returns the sequence number of the latest published frame.
func (s *Stream) seqNow() uint64 {
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	return s.outSeq
}

// recent returns the latest frame if someone watches and it was published
// within two periods.
func (s *Stream) recent() ([]byte, time.Time, bool) {
	if s.Viewers() == 0 {
		return nil, time.Time{}, false
	}
	now := s.now()
	s.outMu.RLock()
	defer s.outMu.RUnlock()
	if s.ringN == 0 || now.Sub(s.ring[0].at) > 2*s.period {
		return nil, time.Time{}, false
	}
	return append([]byte(nil), s.out...), s.outStamp, true
}
