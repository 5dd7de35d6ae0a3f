package ode

import (
	"errors"
	"strings"
	"testing"
)

// A missing library is one error that names the Debian package to
// install, not a crash.
func TestMissingLibraryNamesThePackage(t *testing.T) {
	l, err := loadFrom("libode-not-installed.so.99")
	if l != nil || !errors.Is(err, ErrMissing) {
		t.Fatalf("loadFrom(missing) = %v, %v; want ErrMissing", l, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "libode-dev") || strings.Contains(msg, "\n") {
		t.Fatalf("error %q: want one line naming libode-dev", msg)
	}
}

// A library without ODE's symbols (here the C library) is refused with
// an error, not a panic.
func TestForeignLibraryRefused(t *testing.T) {
	l, err := loadFrom("libc.so.6")
	if l != nil || err == nil {
		t.Fatalf("loadFrom(libc) = %v, %v; want an error", l, err)
	}
	t.Log(err)
}
