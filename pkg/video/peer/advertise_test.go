package peer

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pion/webrtc/v4"
)

// The server's host candidates carry Config.AdvertiseIPs in place of the
// socket's address, on the socket's port; the page (here: the client
// rewriting the advertised address back, as a relay on that port would
// carry it) connects through them.
func TestAdvertiseIPs(t *testing.T) {
	if _, err := New(Config{Open: cameras(nil), AdvertiseIPs: []string{"10.77.1.x"}}); !errors.Is(err, ErrConfig) {
		t.Errorf("a bad advertised address: %v, want ErrConfig", err)
	}
	udp, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { udp.Close() })
	port := udp.LocalAddr().(*net.UDPAddr).Port
	front := newFakeSource(t)
	cfg := testConfig(cameras(map[string]*fakeSource{"front": front}))
	cfg.UDP, cfg.AdvertiseIPs = udp, []string{"192.0.2.7"} // TEST-NET-1: nothing answers there
	s := newServer(t, cfg)
	c := newClient(t)
	var advertised, other atomic.Int32
	c.serverCandidate = func(init *webrtc.ICECandidateInit) bool {
		if strings.Contains(init.Candidate, fmt.Sprintf(" 192.0.2.7 %d ", port)) {
			advertised.Add(1)
			init.Candidate = strings.Replace(init.Candidate, " 192.0.2.7 ", " 127.0.0.1 ", 1)
			return true
		}
		other.Add(1)
		t.Errorf("candidate not advertised: %s", init.Candidate)
		return false
	}
	ss, err := s.NewSession(c.sessionConfig())
	if err != nil {
		t.Fatal(err)
	}
	c.start(ss)
	c.send(`{"type":"want","cameras":["front"]}`)
	tr := c.firstTrack()
	readNALs(t, c, tr, 3, 10*time.Second)
	if advertised.Load() == 0 || other.Load() != 0 {
		t.Errorf("%d advertised candidates, %d others", advertised.Load(), other.Load())
	}
}
