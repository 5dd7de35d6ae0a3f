package udplink

import (
	"strings"
	"testing"
)

func TestListen(t *testing.T) {
	for _, tc := range []struct {
		name, addr, err string
	}{
		{"loopback, free port", "127.0.0.1:0", ""},
		{"bad port", "127.0.0.1:99999", `udplink: address "127.0.0.1:99999"`},
		{"no port", "127.0.0.1", `udplink: address "127.0.0.1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Listen(tc.addr)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Listen(%q) error %v, want one containing %q", tc.addr, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Listen(%q): %v", tc.addr, err)
			}
			defer c.Close()
			if c.LocalAddr().String() == tc.addr {
				t.Errorf("port 0 was not replaced by a free port: %v", c.LocalAddr())
			}
		})
	}
}

func TestListenTaken(t *testing.T) {
	a, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if b, err := Listen(a.LocalAddr().String()); err == nil {
		b.Close()
		t.Fatalf("second bind of %v succeeded", a.LocalAddr())
	} else if !strings.Contains(err.Error(), "udplink: listen") {
		t.Errorf("error %v does not say it was the listen", err)
	}
}
