package video

import (
	"fmt"
	"strings"

	"github.com/ebitengine/purego"
)

// Native libraries (libx264, libyuv) are loaded at run time with purego,
// so building needs only Go; a missing library turns its feature off with
// a one-line reason (what to install) instead of breaking the build.

// openLib dlopens the first of names that loads and returns its handle
// and name; the error lists every name tried.
func openLib(names ...string) (uintptr, string, error) {
	var why []string
	for _, n := range names {
		h, err := purego.Dlopen(n, purego.RTLD_NOW|purego.RTLD_LOCAL)
		if err == nil {
			return h, n, nil
		}
		why = append(why, err.Error())
	}
	return 0, "", fmt.Errorf("%s", strings.Join(why, "; "))
}

// symbol is a function to resolve: its name and where its address goes.
type symbol struct {
	name string
	addr *uintptr
}

// symbols resolves each symbol in h, in order; the error names the first
// one missing.
func symbols(h uintptr, lib string, syms ...symbol) error {
	for _, s := range syms {
		fn, err := purego.Dlsym(h, s.name)
		if err != nil || fn == 0 {
			return fmt.Errorf("%s has no %s: %w", lib, s.name, err)
		}
		*s.addr = fn
	}
	return nil
}

// cString returns s as a NUL-terminated byte slice (keep it alive across
// the call that takes its address).
func cString(s string) []byte { return append([]byte(s), 0) }
