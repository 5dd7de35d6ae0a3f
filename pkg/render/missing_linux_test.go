//go:build linux

package render

import (
	"errors"
	"strings"
	"testing"
)

// TestMissingLibrary: without libEGL or libGLESv2, New fails with
// ErrUnavailable and one line naming the packages to install.
func TestMissingLibrary(t *testing.T) {
	for _, tc := range []struct {
		name string
		lib  *string
	}{{"EGL", &libEGL}, {"GLES", &libGLESv2}} {
		t.Run(tc.name, func(t *testing.T) {
			saved := *tc.lib
			*tc.lib = "libtelebridge-absent.so.9"
			defer func() { *tc.lib = saved }()
			r, err := New()
			if err == nil {
				r.Close()
				t.Fatal("New succeeded without the library")
			}
			msg := err.Error()
			if !errors.Is(err, ErrUnavailable) || !strings.Contains(msg, "libtelebridge-absent.so.9") ||
				!strings.Contains(msg, "libegl1 libgles2 libgl1-mesa-dri") || strings.Contains(msg, "\n") {
				t.Errorf("error %q: want ErrUnavailable, the library's name and what to install, on one line", msg)
			}
		})
	}
}
