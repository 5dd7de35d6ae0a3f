package peer_test

import (
	"errors"
	"fmt"
	"net"

	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// idle is a camera that never sends a picture (a stand-in for pkg/video's
// encoders).
type idle struct{}

func (idle) Subscribe(int) (video.Viewer, error) { return nil, errors.New("not in this example") }

// How a console embeds a session: every message from the page goes to
// Handle, every reply back to the page; Send carries what the session
// sends on its own. Here the page asks for two cameras, one unknown, and
// then sends absurd caps.
func Example() {
	srv, err := peer.New(peer.Config{
		Open: func(name string, _ peer.Caps) (video.Source, error) {
			if name != "front" {
				return nil, errors.New("no such camera")
			}
			return idle{}, nil
		},
		Loopback: true, IPFilter: func(ip net.IP) bool { return ip.IsLoopback() },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()
	ss, err := srv.NewSession(peer.SessionConfig{
		Send:      func(peer.Message) {},                            // the console queues it on its WebSocket
		OnCommand: func(b []byte) { fmt.Printf("command %s\n", b) }, // the console's own validation
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ss.Close()
	for _, raw := range []string{
		`{"type":"want","cameras":["front","rear"],"chosen":"front"}`,
		`{"type":"caps","camera":"front","caps":{"frameRate":0}}`,
	} {
		for _, m := range ss.Handle([]byte(raw)) {
			if m.Type == peer.TypeError {
				fmt.Println("error", m.Error.Code, m.Error.Camera)
				continue
			}
			fmt.Println(m.Type)
		}
	}
	// Output:
	// error unknown-camera rear
	// offer
	// error bad-caps front
}
