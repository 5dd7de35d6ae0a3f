package access

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// TestNewTokenAccepted: every token NewToken makes passes CheckToken, and
// each is new.
func TestNewTokenAccepted(t *testing.T) {
	seen := map[string]bool{}
	for range 20_000 {
		tok, err := NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckToken(tok); err != nil {
			t.Fatalf("%q: %v", tok, err)
		}
		if seen[tok] || len(tok) != len(TokenPrefix)+32 {
			t.Fatalf("%q: repeated or of length %d", tok, len(tok))
		}
		seen[tok] = true
	}
}

// forge returns a token of the console's form over random bytes b with a
// valid checksum: what a person who copied the checksum would write.
func forge(b []byte) string {
	var buf [tokenRandom + 4]byte
	copy(buf[:], b)
	binary.BigEndian.PutUint32(buf[tokenRandom:], tokenSum(buf[:tokenRandom]))
	return TokenPrefix + strings.ToLower(tokenText.EncodeToString(buf[:]))
}

// TestForgedToken: a token of the right form and checksum whose 128 bits
// are not random (all zeros, a word repeated) is refused and says so.
func TestForgedToken(t *testing.T) {
	for _, b := range [][]byte{make([]byte, 16), []byte("passwordpassword"), []byte("0123456701234567")} {
		err := CheckToken(forge(b))
		if !errors.Is(err, ErrWeakToken) || !strings.Contains(err.Error(), "not random") {
			t.Errorf("forged over %q: %v", b, err)
		}
	}
	if err := CheckToken(forge([]byte("0123456789abcdef"))); err != nil {
		t.Errorf("16 different bytes: %v", err)
	}
}

// FuzzCheckToken: any string is judged without a panic; an accepted one
// has the console's form and decodes to bytes whose checksum holds.
func FuzzCheckToken(f *testing.F) {
	tok, err := NewToken()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{tok, "", TokenPrefix, "00000000000000000000000000000000", TokenPrefix + strings.Repeat("a", 32), forge(make([]byte, 16)), TokenPrefix + strings.Repeat("=", 32)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckToken(s) != nil {
			return
		}
		b, err := tokenText.DecodeString(strings.ToUpper(strings.TrimPrefix(s, TokenPrefix)))
		if !strings.HasPrefix(s, TokenPrefix) || err != nil || len(b) != tokenRandom+4 || binary.BigEndian.Uint32(b[tokenRandom:]) != tokenSum(b[:tokenRandom]) {
			t.Fatalf("accepted %q", s)
		}
	})
}
