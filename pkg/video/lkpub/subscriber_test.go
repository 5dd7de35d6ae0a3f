package lkpub

import (
	"bufio"
	"io"
	"os/exec"
	"sync"
	"testing"
	"time"

	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/rtp/codecs"
	"github.com/pion/webrtc/v4"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
	"github.com/telebridge/telebridge/pkg/video/framecode"
)

// Size the subscriber decodes to [px]: the frame code reads at any scale.
const decW, decH = 320, 240

// received is one decoded picture's frame code on a track.
type received struct {
	track string
	code  framecode.Code
	at    time.Time // when it was decoded
}

// subscriber is a second participant that subscribes to every track,
// decodes each with Debian's ffmpeg and reads the frame codes.
type subscriber struct {
	t     *testing.T
	room  *lksdk.Room
	codes chan received
	wg    sync.WaitGroup

	mu     sync.Mutex
	mimes  map[string]string // track name -> codec
	errors []string
}

func newSubscriber(t *testing.T, url, room, identity string) *subscriber {
	t.Helper()
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg not installed (apt-get install ffmpeg; scripts/check.sh installs it)")
	}
	tok, err := SubscriberToken(devKey, devSecret, room, identity, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	s := &subscriber{t: t, codes: make(chan received, 4096), mimes: map[string]string{}}
	cb := lksdk.NewRoomCallback()
	cb.OnTrackSubscribed = func(tr *webrtc.TrackRemote, pub *lksdk.RemoteTrackPublication, _ *lksdk.RemoteParticipant) {
		s.mu.Lock()
		s.mimes[pub.Name()] = tr.Codec().MimeType
		s.mu.Unlock()
		s.wg.Add(1)
		go s.decode(pub.Name(), tr)
	}
	s.room = lksdk.NewRoom(cb)
	if err := s.room.JoinWithToken(url, tok, lksdk.WithConnectTimeout(15*time.Second)); err != nil {
		t.Fatalf("subscriber join: %v", err)
	}
	return s
}

func (s *subscriber) fail(format string) {
	s.mu.Lock()
	s.errors = append(s.errors, format)
	s.mu.Unlock()
}

// decode depacketizes the track's RTP into an H.264 byte stream, pipes it
// through ffmpeg and reads the frame code of every decoded picture.
func (s *subscriber) decode(name string, tr *webrtc.TrackRemote) {
	defer s.wg.Done()
	cmd := exec.Command("ffmpeg", "-hide_banner", "-loglevel", "error", "-probesize", "32768", "-analyzeduration", "0",
		"-fflags", "nobuffer", "-flags", "low_delay", "-f", "h264", "-i", "-",
		"-vf", "scale=320:240", "-f", "rawvideo", "-pix_fmt", "gray", "-")
	in, err := cmd.StdinPipe()
	if err != nil {
		s.fail(err.Error())
		return
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.fail(err.Error())
		return
	}
	var stderr syncbuf.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		s.fail("ffmpeg: " + err.Error())
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReaderSize(out, decW*decH)
		pic := make([]byte, decW*decH)
		for {
			if _, err := io.ReadFull(r, pic); err != nil {
				return
			}
			if c, err := framecode.Read(pic, decW, decW, decH); err == nil {
				s.codes <- received{track: name, code: c, at: time.Now()}
			}
		}
	}()
	var dep codecs.H264Packet
	for {
		pkt, _, err := tr.ReadRTP()
		if err != nil {
			break // the track ended (the room closed)
		}
		nals, err := dep.Unmarshal(pkt.Payload)
		if err != nil || len(nals) == 0 {
			continue
		}
		if _, err := in.Write(nals); err != nil {
			break
		}
	}
	in.Close()
	<-done
	_ = cmd.Wait()
	if e := stderr.String(); e != "" {
		s.t.Logf("ffmpeg on %s: %s", name, e)
	}
}

// mime returns the codec the subscriber saw on track name ("" if none).
func (s *subscriber) mime(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mimes[name]
}

func (s *subscriber) close() {
	s.room.Disconnect()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.errors {
		s.t.Error(e)
	}
}
