package video

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// NoX264Env names the environment variable that, set to anything but
// empty, keeps libx264 unloaded: the H.264 fallback (MJPEG in the
// console) on a machine that has it, for tests and for comparison.
const NoX264Env = "TELEBRIDGE_NO_X264"

// x264Lib is libx264 loaded at run time: its functions' addresses.
type x264Lib struct {
	name                                       string // the file dlopen loaded
	defaultPreset, parse, applyProfile, clean  uintptr
	pictureInit, open, reconfig, encode, close uintptr
}

// x264Load loads libx264 once per process (tests substitute a loader).
var x264Load = sync.OnceValues(func() (*x264Lib, error) { return loadX264(os.Getenv(NoX264Env) != "", x264Soname) })

// loadX264 loads libx264 (names: the files to try) and checks that it is
// the build whose structures x264_abi.go lays out.
func loadX264(off bool, names ...string) (*x264Lib, error) {
	if off {
		return nil, fmt.Errorf("%w (turned off by %s)", ErrNoH264, NoX264Env)
	}
	h, name, err := openLib(names...)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoH264, err)
	}
	l := &x264Lib{name: name}
	if err := symbols(h, name,
		symbol{x264OpenSymbol, &l.open}, // first: the build check
		symbol{"x264_param_default_preset", &l.defaultPreset},
		symbol{"x264_param_parse", &l.parse},
		symbol{"x264_param_apply_profile", &l.applyProfile},
		symbol{"x264_param_cleanup", &l.clean},
		symbol{"x264_picture_init", &l.pictureInit},
		symbol{"x264_encoder_reconfig", &l.reconfig},
		symbol{"x264_encoder_encode", &l.encode},
		symbol{"x264_encoder_close", &l.close},
	); err != nil {
		_ = purego.Dlclose(h)
		return nil, fmt.Errorf("%w (%v: telebridge knows x264 build %d)", ErrNoH264, err, x264Build)
	}
	// The picture size is the one field set by offset: the defaults
	// around it must read as build 164 puts them.
	var p x264Params
	if err := l.defaults(&p); err != nil {
		return nil, fmt.Errorf("%w (%s: %v)", ErrNoH264, name, err)
	}
	defer l.cleanup(&p)
	if w, hh, csp, depth := p.int32At(x264ParamWidth), p.int32At(x264ParamHeight), p.int32At(x264ParamCSP), p.int32At(x264ParamBitDepth); w != 0 || hh != 0 || csp != x264CSPI420 || depth != 8 {
		return nil, fmt.Errorf("%w (%s: x264_param_t defaults read as width %d height %d csp %d bit depth %d, not build %d's layout)", ErrNoH264, name, w, hh, csp, depth, x264Build)
	}
	return l, nil
}

// H264Available reports whether H.264 encoding works here: libx264 of
// the known build loaded at run time (and NoX264Env not set).
func H264Available() bool { _, err := x264Load(); return err == nil }

// H264Unavailable is nil when H.264 encoding works, else why not, in one
// line with what to install (it wraps ErrNoH264).
func H264Unavailable() error { _, err := x264Load(); return err }

// x264Params is the opaque, 8-byte aligned buffer of one x264_param_t.
type x264Params [x264ParamBytes / 8]uint64

func (p *x264Params) ptr() uintptr { return uintptr(unsafe.Pointer(p)) }

func (p *x264Params) bytes() []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(p)), x264ParamBytes)
}

func (p *x264Params) int32At(off int) int32 {
	return int32(binary.NativeEndian.Uint32(p.bytes()[off:]))
}

func (p *x264Params) setInt32At(off int, v int32) {
	binary.NativeEndian.PutUint32(p.bytes()[off:], uint32(v))
}

// defaults fills p with preset ultrafast, tune zerolatency: no B-frames,
// no look-ahead, sliced threads, one access unit out per picture in.
func (l *x264Lib) defaults(p *x264Params) error {
	preset, tune := cString("ultrafast"), cString("zerolatency")
	r, _, _ := purego.SyscallN(l.defaultPreset, p.ptr(), uintptr(unsafe.Pointer(&preset[0])), uintptr(unsafe.Pointer(&tune[0])))
	runtime.KeepAlive(preset)
	runtime.KeepAlive(tune)
	if int32(r) < 0 {
		return errors.New("x264_param_default_preset ultrafast zerolatency failed")
	}
	return nil
}

// set is x264_param_parse(p, name, value).
func (l *x264Lib) set(p *x264Params, name, value string) error {
	n, v := cString(name), cString(value)
	r, _, _ := purego.SyscallN(l.parse, p.ptr(), uintptr(unsafe.Pointer(&n[0])), uintptr(unsafe.Pointer(&v[0])))
	runtime.KeepAlive(n)
	runtime.KeepAlive(v)
	if int32(r) != 0 {
		return fmt.Errorf("x264 option %s=%s refused (%d)", name, value, int32(r))
	}
	return nil
}

func (l *x264Lib) cleanup(p *x264Params) { purego.SyscallN(l.clean, p.ptr()) }

// x264Encoder is libx264 (preset ultrafast, tune zerolatency) at a
// constant frame rate: ABR with a VBV of maxrate = target and a buffer of
// two seconds' worth (2x the target), an IDR every KeyInterval, SPS and
// PPS before every IDR (Annex-B).
type x264Encoder struct {
	lib    *x264Lib
	param  x264Params
	h      uintptr // x264_t*
	in     x264Picture
	out    x264Picture
	nal    *x264NAL // x264_nal_t* written by x264_encoder_encode
	nNAL   int32
	pts    int64
	closed bool
	// encArgs are x264_encoder_encode's arguments, made once: passed as
	// a slice, SyscallN then allocates nothing per picture (a variadic
	// list of unsafe.Pointer conversions would be moved to the heap).
	encArgs [5]uintptr
}

func newH264Encoder(cfg EncoderConfig) (Encoder, error) {
	lib, err := x264Load()
	if err != nil {
		return nil, err
	}
	e := &x264Encoder{lib: lib}
	if err := lib.defaults(&e.param); err != nil {
		return nil, fmt.Errorf("video: x264: %w", err)
	}
	e.param.setInt32At(x264ParamWidth, int32(cfg.Width))
	e.param.setInt32At(x264ParamHeight, int32(cfg.Height))
	keyint := max(1, int(math.Round(cfg.KeyInterval.Seconds()*cfg.FrameRate)))
	for _, o := range [][2]string{
		{"fps", strconv.FormatFloat(cfg.FrameRate, 'f', -1, 64)},
		{"force-cfr", "1"}, // rate control by fps, not by timestamps
		{"keyint", strconv.Itoa(keyint)},
		{"repeat-headers", "1"},
		{"annexb", "1"},
		{"log", "0"}, // errors only: no start and end statistics on stderr
	} {
		if err := lib.set(&e.param, o[0], o[1]); err != nil {
			lib.cleanup(&e.param)
			return nil, fmt.Errorf("video: x264: %w", err)
		}
	}
	if err := e.setRate(cfg.Bitrate); err != nil {
		lib.cleanup(&e.param)
		return nil, err
	}
	high := cString("high") // Constrained Baseline in effect: ultrafast turns CABAC, 8x8 and B-frames off
	r, _, _ := purego.SyscallN(lib.applyProfile, e.param.ptr(), uintptr(unsafe.Pointer(&high[0])))
	runtime.KeepAlive(high)
	if int32(r) < 0 {
		lib.cleanup(&e.param)
		return nil, errors.New("video: x264_param_apply_profile high failed")
	}
	e.h, _, _ = purego.SyscallN(lib.open, e.param.ptr())
	if e.h == 0 {
		lib.cleanup(&e.param)
		return nil, fmt.Errorf("video: open x264 %dx%d at %v Hz: x264_encoder_open failed", cfg.Width, cfg.Height, cfg.FrameRate)
	}
	purego.SyscallN(lib.pictureInit, uintptr(unsafe.Pointer(&e.in)))
	e.encArgs = [5]uintptr{e.h, uintptr(unsafe.Pointer(&e.nal)), uintptr(unsafe.Pointer(&e.nNAL)), uintptr(unsafe.Pointer(&e.in)), uintptr(unsafe.Pointer(&e.out))}
	e.in.img = x264Image{csp: x264CSPI420, planes: 3, stride: [4]int32{int32(cfg.Width), int32(cfg.Width / 2), int32(cfg.Width / 2)}}
	return e, nil
}

// setRate writes the rate control for bps [bit/s] into e.param (x264
// counts kbit/s).
func (e *x264Encoder) setRate(bps int) error {
	kbps := max(1, (bps+500)/1000)
	for _, o := range [][2]string{
		{"bitrate", strconv.Itoa(kbps)},
		{"vbv-maxrate", strconv.Itoa(kbps)},
		{"vbv-bufsize", strconv.Itoa(2 * kbps)},
	} {
		if err := e.lib.set(&e.param, o[0], o[1]); err != nil {
			return fmt.Errorf("video: x264 bitrate %d bit/s: %w", bps, err)
		}
	}
	return nil
}

// Encode hands pic to x264 (its planes are read during the call, never
// kept) and copies the access unit out: one allocation, the access unit
// the caller owns.
func (e *x264Encoder) Encode(pic *I420, key bool) ([]byte, bool, error) {
	if e.closed {
		return nil, false, ErrClosed
	}
	w, h := int(e.param.int32At(x264ParamWidth)), int(e.param.int32At(x264ParamHeight))
	if pic.Width != w || pic.Height != h || len(pic.Y) < w*h || len(pic.U) < w*h/4 || len(pic.V) < w*h/4 {
		return nil, false, fmt.Errorf("video: x264 opened at %dx%d, picture %dx%d: %w", w, h, pic.Width, pic.Height, ErrBadSize)
	}
	e.in.img.plane[0], e.in.img.plane[1], e.in.img.plane[2] = &pic.Y[0], &pic.U[0], &pic.V[0]
	e.in.typ = x264TypeAuto
	if key {
		e.in.typ = x264TypeIDR
	}
	e.in.pts = e.pts
	e.pts++
	// e is on the heap (NewEncoder returns it) and Go's heap does not
	// move: the addresses in encArgs stay valid while e lives.
	r, _, _ := purego.SyscallN(e.lib.encode, e.encArgs[:]...)
	e.in.img.plane = [4]*byte{}
	runtime.KeepAlive(pic)
	runtime.KeepAlive(e)
	size := int(int32(r))
	if size <= 0 || e.nNAL <= 0 || e.nal == nil {
		return nil, false, fmt.Errorf("video: x264_encoder_encode returned %d (%d NAL units)", size, e.nNAL)
	}
	au := make([]byte, size)
	copy(au, unsafe.Slice(e.nal.payload, size))
	return au, e.out.keyframe != 0 && HasIDR(au), nil
}

// SetBitrate reconfigures the running encoder (x264_encoder_reconfig).
func (e *x264Encoder) SetBitrate(bps int) error {
	if e.closed {
		return ErrClosed
	}
	if err := e.setRate(bps); err != nil {
		return err
	}
	if r, _, _ := purego.SyscallN(e.lib.reconfig, e.h, e.param.ptr()); int32(r) < 0 {
		return fmt.Errorf("video: x264 bitrate %d bit/s: x264_encoder_reconfig refused it", bps)
	}
	return nil
}

// Close frees the encoder; a second Close does nothing.
func (e *x264Encoder) Close() error {
	if e.closed {
		return nil
	}
	e.closed = true
	purego.SyscallN(e.lib.close, e.h)
	e.lib.cleanup(&e.param)
	return nil
}
