//go:build !linux

package console

import (
	"net"
	"time"
)

// tcpStalled knows no TCP figures outside Linux: never stalled.
func tcpStalled(*net.TCPConn) (bool, time.Duration) { return false, 0 }
