package access

// Tokens and addresses: the token's form, its cookie, and which listen
// addresses are loopback.

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/netip"
	"strconv"
)

// CookiePrefix starts the name of the cookie that carries the access
// token after the first load; the console's port follows it
// ("telebridge_console_8080"), so that two consoles on one host keep
// their own cookies. Under TLS the name has the __Host- prefix too (the
// browser then keeps the cookie to this host, Secure, Path=/).
const CookiePrefix = "telebridge_console_"

// TokenEnv is the environment variable `telebridge console` reads the
// access token from when no --token is given.
const TokenEnv = "TELEBRIDGE_CONSOLE_TOKEN"

// NewToken returns a random access token (128 bits, hex).
func NewToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("console: token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// IsLoopback reports whether a listen address host:port binds loopback
// only ("127.0.0.1:8080", "[::1]:0", "localhost:8080"). An empty host
// binds every interface and is not loopback.
func IsLoopback(listen string) bool {
	host, _, err := net.SplitHostPort(listen)
	return err == nil && loopbackName(host)
}

// loopbackName reports whether host (a name or an address, no port) is
// localhost or a loopback address.
func loopbackName(host string) bool {
	if host == "localhost" {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// CookieName returns the name of the token cookie of a console on port
// (with tls, the __Host- prefixed one).
func CookieName(port int, tls bool) string {
	n := CookiePrefix + strconv.Itoa(port)
	if tls {
		n = "__Host-" + n
	}
	return n
}
