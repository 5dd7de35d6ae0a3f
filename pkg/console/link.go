package console

import (
	"context"
	"net"
	"time"
)

// connKey keys the page's network connection in its requests' context.
type connKey struct{}

// withConn is the HTTP server's ConnContext: it keeps each connection in
// its requests' context, for linkStalled.
func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// linkStalled reports whether the TCP connection of the request context
// ctx has bytes in flight that nothing acknowledges, and how long ago the
// last acknowledgement came. False where the connection or its TCP
// figures are unknown.
func linkStalled(ctx context.Context) (bool, time.Duration) {
	c, _ := ctx.Value(connKey{}).(net.Conn)
	for c != nil {
		u, ok := c.(interface{ NetConn() net.Conn }) // TLS
		if !ok {
			break
		}
		c = u.NetConn()
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return false, 0
	}
	return tcpStalled(tc)
}
