package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// CI and unattended runs have stdin on /dev/null, a character device that
// is not a terminal: the commands must take their scripted path there.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Fatal("/dev/null taken for a terminal")
	}
}

func TestRunDispatch(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains string
	}{
		{nil, 2, "usage: telebridge"},
		{[]string{"help"}, 0, "commands:"},
		{[]string{"no-such-command"}, 2, "unknown command"},
		{[]string{"decode"}, 2, "protocols:"},
		{[]string{"decode", "nope"}, 2, "unknown protocol"},
	}
	for _, tc := range tests {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, stdio{in: strings.NewReader(""), out: &out, err: &errOut})
		if code != tc.code || !strings.Contains(out.String()+errOut.String(), tc.contains) {
			t.Errorf("run(%q) = %d, output %q; want %d with %q", tc.args, code, out.String()+errOut.String(), tc.code, tc.contains)
		}
	}
}
