package access

// Tokens and addresses: the token's form, its cookie, and which listen
// addresses are loopback.

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// CookiePrefix starts the name of the cookie that carries the session
// identifier after a login (never the token: see Sessions); the console's port follows it
// ("telebridge_console_8080"), so that two consoles on one host keep
// their own cookies. Under TLS the name has the __Host- prefix too (the
// browser then keeps the cookie to this host, Secure, Path=/).
const CookiePrefix = "telebridge_console_"

// TokenEnv is the environment variable `telebridge console` reads the
// access token from when no --token is given.
const TokenEnv = "TELEBRIDGE_CONSOLE_TOKEN"

// TokenPrefix starts every access token the console accepts: tokens are
// made by NewToken (`telebridge token new`), never chosen by hand.
const TokenPrefix = "tb1_"

// tokenRandom is the number of random bytes of a token (128 bits).
const tokenRandom = 16

// tokenMinDistinct is the fewest different byte values the random part
// of a token may have. 16 bytes drawn at random have fewer than 10
// different values with a probability of about 1e-7 (NewToken draws again
// then), while a made-up token (all zeros, a word repeated) has few.
const tokenMinDistinct = 10

// tokenText encodes a token's bytes (random part and checksum): base32,
// lower case, no padding (letters and digits: safe in a URL, a cookie and
// a YAML file).
var tokenText = base32.StdEncoding.WithPadding(base32.NoPadding)

// crcTable is the CRC-32C table of the token checksum.
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// NewToken returns a random access token: TokenPrefix, then 128 random
// bits and a 32-bit checksum of them, in 32 base32 characters
// ("tb1_" and 32 of a-z, 2-7). CheckToken accepts exactly these.
func NewToken() (string, error) {
	var b [tokenRandom + 4]byte
	for {
		if _, err := rand.Read(b[:tokenRandom]); err != nil {
			return "", fmt.Errorf("console: token: %w", err)
		}
		if distinct(b[:tokenRandom]) >= tokenMinDistinct {
			break
		}
	}
	binary.BigEndian.PutUint32(b[tokenRandom:], tokenSum(b[:tokenRandom]))
	return TokenPrefix + strings.ToLower(tokenText.EncodeToString(b[:])), nil
}

// tokenSum is the checksum of a token's random part: CRC-32C over the
// prefix and the bytes, so that a token of another format or version
// never checks.
func tokenSum(random []byte) uint32 {
	return crc32.Update(crc32.Checksum([]byte(TokenPrefix), crcTable), crcTable, random)
}

// distinct returns the number of different values in b.
func distinct(b []byte) int {
	var seen [256]bool
	n := 0
	for _, c := range b {
		if !seen[c] {
			seen[c], n = true, n+1
		}
	}
	return n
}

// ErrWeakToken is wrapped when a token is refused: not one NewToken made
// (a chosen word, a repeated character, another tool's random string),
// mistyped, or with too little randomness.
var ErrWeakToken = errors.New("token refused")

// CheckToken accepts only tokens NewToken made (`telebridge token new`),
// and says why it refuses one: the form (prefix, length, alphabet), the
// checksum (a typo or a made-up token), the randomness of its 128 bits
// (fewer than 10 different bytes among 16). A token is judged by how it
// was made, not by its length: no rule of thumb tells a random string
// from a chosen one, and 128 random bits are beyond guessing.
func CheckToken(t string) error {
	const how = "make one with `telebridge token new`"
	body, ok := strings.CutPrefix(t, TokenPrefix)
	if !ok {
		return fmt.Errorf("console: %w: not a console token (a console token starts with %q; tokens chosen by hand or made by other tools are not accepted): %s", ErrWeakToken, TokenPrefix, how)
	}
	b, err := tokenText.DecodeString(strings.ToUpper(body))
	if err != nil || len(b) != tokenRandom+4 || body != strings.ToLower(body) {
		return fmt.Errorf("console: %w: a console token is %q and 32 characters of a-z and 2-7, this one has %d after the prefix: %s", ErrWeakToken, TokenPrefix, len(body), how)
	}
	if binary.BigEndian.Uint32(b[tokenRandom:]) != tokenSum(b[:tokenRandom]) {
		return fmt.Errorf("console: %w: checksum does not match (mistyped or cut, or not made by the console): %s", ErrWeakToken, how)
	}
	if n := distinct(b[:tokenRandom]); n < tokenMinDistinct {
		return fmt.Errorf("console: %w: its 128 bits are not random (%d different bytes of 16, a random token has at least %d): %s", ErrWeakToken, n, tokenMinDistinct, how)
	}
	return nil
}

// TokenAccepted is the line `telebridge console` prints for each
// accepted token: what was checked.
const TokenAccepted = "a console token (" + TokenPrefix + "…): 128 random bits, checksum valid"

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

// CookieName returns the name of the session cookie of a console on port
// (with tls, the __Host- prefixed one).
func CookieName(port int, tls bool) string {
	n := CookiePrefix + strconv.Itoa(port)
	if tls {
		n = "__Host-" + n
	}
	return n
}
