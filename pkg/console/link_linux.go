package console

import (
	"net"
	"time"

	"golang.org/x/sys/unix"
)

// tcpStalled reads the kernel's TCP_INFO of c: unacknowledged segments
// in flight, and the time since the last acknowledgement.
func tcpStalled(c *net.TCPConn) (bool, time.Duration) {
	rc, err := c.SyscallConn()
	if err != nil {
		return false, 0
	}
	var info *unix.TCPInfo
	var ierr error
	if err := rc.Control(func(fd uintptr) { info, ierr = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO) }); err != nil || ierr != nil {
		return false, 0
	}
	return info.Unacked > 0, time.Duration(info.Last_ack_recv) * time.Millisecond
}
