package lkpub

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/telebridge/telebridge/internal/testkit/syncbuf"
)

// The dev server's built-in credentials (livekit-server --dev).
const (
	devKey    = "devkey"
	devSecret = "secret"
)

// lkServer is a livekit-server --dev process on loopback, on ports picked
// free: its signalling port, ICE over TCP and one UDP port for media.
type lkServer struct {
	t                      *testing.T
	bin                    string
	port, tcpPort, udpPort int
	cmd                    *exec.Cmd
	out                    *syncbuf.Buffer
	exited                 chan struct{}
	mu                     sync.Mutex
}

// serverBinary finds livekit-server: $LIVEKIT_SERVER, else PATH. The test
// is skipped, with the reason, when there is none.
func serverBinary(t *testing.T) string {
	if p := os.Getenv("LIVEKIT_SERVER"); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("LIVEKIT_SERVER=%s: %v", p, err)
		}
		return p
	}
	p, err := exec.LookPath("livekit-server")
	if err != nil {
		t.Skip("livekit-server not found: set LIVEKIT_SERVER or put it on PATH (scripts/check.d/livekit.sh builds it from its Go module)")
	}
	return p
}

// freePort returns a port that was free on 127.0.0.1 for network
// ("tcp" or "udp").
func freePort(t *testing.T, network string) int {
	t.Helper()
	if network == "udp" {
		c, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.LocalAddr().(*net.UDPAddr).Port
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// newServer picks the ports; start runs the server.
func newServer(t *testing.T) *lkServer {
	s := &lkServer{t: t, bin: serverBinary(t), port: freePort(t, "tcp"), tcpPort: freePort(t, "tcp"), udpPort: freePort(t, "udp")}
	t.Cleanup(s.stop)
	return s
}

// URL is the signalling address.
func (s *lkServer) URL() string { return fmt.Sprintf("ws://127.0.0.1:%d", s.port) }

// config keeps every address on loopback: the server binds 127.0.0.1,
// offers only 127.0.0.1 candidates and no TURN.
func (s *lkServer) config() string {
	return fmt.Sprintf(`port: %d
bind_addresses: ["127.0.0.1"]
rtc:
  tcp_port: %d
  udp_port: %d
  use_external_ip: false
  node_ip: 127.0.0.1
  enable_loopback_candidate: true
  ips:
    includes: ["127.0.0.1/32"]
turn:
  enabled: false
logging:
  level: warn
`, s.port, s.tcpPort, s.udpPort)
}

func (s *lkServer) start() {
	t := s.t
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out = &syncbuf.Buffer{}
	s.cmd = exec.Command(s.bin, "--dev", "--config-body", s.config())
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", s.bin, err)
	}
	s.exited = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) { _ = c.Wait(); close(done) }(s.cmd, s.exited)
	// Ready when its HTTP port answers.
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(s.port))
		if err == nil {
			resp.Body.Close()
			return
		}
		select {
		case <-s.exited:
			t.Fatalf("livekit-server exited at start:\n%s", s.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("livekit-server not answering on port %d after 30 s: %v\n%s", s.port, err, s.out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// stop kills the server (as a crash or a lost network would) and waits.
func (s *lkServer) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
	if s.t.Failed() {
		s.t.Logf("livekit-server output:\n%s", s.out.String())
	}
}
