package impair_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/telebridge/telebridge/pkg/impair"
)

// A proxy between a client and a server: 20 % of the client's packets are
// lost and the rest arrive 5-15 ms late. With the same seed the same
// packets are lost.
func Example() {
	server, _ := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	defer server.Close()
	p, err := impair.New(impair.Config{
		Upstream: server.LocalAddr().(*net.UDPAddr).AddrPort(),
		Seed:     1,
		Up:       impair.Impairment{Loss: 0.2, Delay: 5 * time.Millisecond, Jitter: 10 * time.Millisecond},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx) }()

	client, _ := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	defer client.Close()
	for i := range 100 {
		_, _ = client.WriteToUDPAddrPort([]byte{byte(i)}, p.Addr()) // send to the proxy, not the server
	}
	for p.Stats(impair.Up).Sent+p.Stats(impair.Up).Lost() < 100 {
		time.Sleep(time.Millisecond)
	}
	s := p.Stats(impair.Up)
	fmt.Println("sent", s.Sent, "lost", s.LostRandom)
	cancel()
	<-done
	// Output: sent 75 lost 25
}
