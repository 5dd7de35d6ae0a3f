package video

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// requireX264 skips t when NoX264Env turns libx264 off on purpose and
// fails it when libx264 cannot be loaded otherwise: the H.264 tests never
// pass by not running.
func requireX264(t testing.TB) {
	t.Helper()
	if os.Getenv(NoX264Env) != "" {
		t.Skipf("%s is set: libx264 is off", NoX264Env)
	}
	if err := H264Unavailable(); err != nil {
		t.Fatal(err)
	}
}

// withX264Loader makes the package load libx264 with load for the rest of
// the test.
func withX264Loader(t *testing.T, load func() (*x264Lib, error)) {
	old := x264Load
	x264Load = load
	t.Cleanup(func() { x264Load = old })
}

// TestH264FallbackWhenLibraryMissing: without libx264 the encoder and an
// encoding stream fail with ErrNoH264 and one line that names the
// package to install; a pass-through stream (a camera that encodes
// itself) still works. A library of another build is refused by name.
func TestH264FallbackWhenLibraryMissing(t *testing.T) {
	for _, c := range []struct {
		name, lib, want string
	}{
		{"missing", filepath.Join(t.TempDir(), "libx264.so.164"), "apt-get install libx264-164"},
		{"another build", "libc.so.6", "has no x264_encoder_open_164"},
	} {
		t.Run(c.name, func(t *testing.T) {
			withX264Loader(t, func() (*x264Lib, error) { return loadX264(false, c.lib) })
			err := H264Unavailable()
			if !errors.Is(err, ErrNoH264) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("H264Unavailable: %v; want one line wrapping ErrNoH264 with %q", err, c.want)
			}
			if H264Available() {
				t.Error("H264Available with no library")
			}
			if _, err := NewStream(Config{Name: "front"}); !errors.Is(err, ErrNoH264) || !strings.Contains(err.Error(), "libx264-164") {
				t.Errorf("NewStream: %v", err)
			}
			if _, err := NewEncoder(EncoderConfig{Width: 64, Height: 48}); !errors.Is(err, ErrNoH264) {
				t.Errorf("NewEncoder: %v", err)
			}
			if _, err := NewStream(Config{Name: "front", PassThrough: true}); err != nil {
				t.Errorf("pass-through stream: %v", err)
			}
		})
	}
}

// TestNoX264EnvTurnsH264Off runs this test binary again with NoX264Env
// set: there H.264 is off with that reason, and a stream falls back.
func TestNoX264EnvTurnsH264Off(t *testing.T) {
	if os.Getenv(NoX264Env) != "" {
		err := H264Unavailable()
		if !errors.Is(err, ErrNoH264) || !strings.Contains(err.Error(), NoX264Env) {
			t.Fatalf("with %s set: H264Unavailable = %v", NoX264Env, err)
		}
		if _, err := NewStream(Config{Name: "front"}); !errors.Is(err, ErrNoH264) {
			t.Fatalf("with %s set: NewStream: %v", NoX264Env, err)
		}
		return
	}
	requireX264(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoX264EnvTurnsH264Off$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), NoX264Env+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoX264EnvTurnsH264Off") {
		t.Fatalf("child with %s=1: %v\n%s", NoX264Env, err, out)
	}
}

// TestX264Layout compares x264_abi.go with x264.h: a C program prints
// sizeof and offsetof of every field this package lays out or writes.
// It needs a C compiler and libx264-dev (not needed to build or run
// telebridge); it skips without them unless TELEBRIDGE_X264_LAYOUT is
// "required" (scripts/check.sh sets it and installs both).
func TestX264Layout(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		cc, err = exec.LookPath("gcc")
	}
	_, herr := os.Stat("/usr/include/x264.h")
	if err != nil || herr != nil || runtime.GOOS != "linux" {
		if os.Getenv("TELEBRIDGE_X264_LAYOUT") == "required" {
			t.Fatalf("need a C compiler and /usr/include/x264.h (apt-get install gcc libx264-dev): %v, %v", err, herr)
		}
		t.Skipf("no C compiler or no x264.h (apt-get install gcc libx264-dev): %v, %v", err, herr)
	}
	var p x264Picture
	var img x264Image
	var n x264NAL
	want := []struct {
		expr string
		got  uintptr
	}{
		{"X264_BUILD", x264Build},
		{"X264_CSP_I420", x264CSPI420},
		{"X264_TYPE_AUTO", x264TypeAuto},
		{"X264_TYPE_IDR", x264TypeIDR},
		{"sizeof(x264_param_t) <= " + strconv.Itoa(x264ParamBytes), 1},
		{"_Alignof(x264_param_t) <= 8", 1},
		{"offsetof(x264_param_t, i_width)", x264ParamWidth},
		{"offsetof(x264_param_t, i_height)", x264ParamHeight},
		{"offsetof(x264_param_t, i_csp)", x264ParamCSP},
		{"offsetof(x264_param_t, i_bitdepth)", x264ParamBitDepth},
		{"sizeof(x264_picture_t)", unsafe.Sizeof(p)},
		{"offsetof(x264_picture_t, i_type)", unsafe.Offsetof(p.typ)},
		{"offsetof(x264_picture_t, b_keyframe)", unsafe.Offsetof(p.keyframe)},
		{"offsetof(x264_picture_t, i_pts)", unsafe.Offsetof(p.pts)},
		{"offsetof(x264_picture_t, param)", unsafe.Offsetof(p.param)},
		{"offsetof(x264_picture_t, img)", unsafe.Offsetof(p.img)},
		{"sizeof(x264_image_t)", unsafe.Sizeof(img)},
		{"offsetof(x264_image_t, i_csp)", unsafe.Offsetof(img.csp)},
		{"offsetof(x264_image_t, i_plane)", unsafe.Offsetof(img.planes)},
		{"offsetof(x264_image_t, i_stride)", unsafe.Offsetof(img.stride)},
		{"offsetof(x264_image_t, plane)", unsafe.Offsetof(img.plane)},
		{"sizeof(x264_nal_t)", unsafe.Sizeof(n)},
		{"offsetof(x264_nal_t, i_payload)", unsafe.Offsetof(n.payloadLen)},
		{"offsetof(x264_nal_t, p_payload)", unsafe.Offsetof(n.payload)},
		{"offsetof(x264_nal_t, i_padding)", unsafe.Offsetof(n.padding)},
	}
	var src strings.Builder
	src.WriteString("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <x264.h>\nint main(void) {\n")
	for _, w := range want {
		fmt.Fprintf(&src, "\tprintf(\"%%zu\\n\", (size_t)(%s));\n", w.expr)
	}
	src.WriteString("\treturn 0;\n}\n")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "layout.c"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-o", filepath.Join(dir, "layout"), filepath.Join(dir, "layout.c")).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(dir, "layout")).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(want) {
		t.Fatalf("layout program printed %d values, want %d", len(lines), len(want))
	}
	for i, w := range want {
		if lines[i] != strconv.FormatUint(uint64(w.got), 10) {
			t.Errorf("%s: x264.h says %s, x264_abi.go has %d", w.expr, lines[i], w.got)
		}
	}
}
