package udplink

import (
	"fmt"
	"net"
)

// Listen binds a UDP socket to addr ("host:port"; port 0 picks a free one,
// an empty host binds every address). The caller owns the returned socket:
// it sends on it, hands it to a Receiver, and closes it.
func Listen(addr string) (*net.UDPConn, error) {
	laddr, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("udplink: address %q: %w", addr, err)
	}
	conn, err := net.ListenUDP("udp", laddr)
	if err != nil {
		return nil, fmt.Errorf("udplink: listen %s: %w", addr, err)
	}
	return conn, nil
}
