package video

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// NoLibyuvEnv names the environment variable that, set to anything but
// empty, keeps libyuv unloaded: the Go conversion runs instead (for tests
// and for comparison).
const NoLibyuvEnv = "TELEBRIDGE_NO_LIBYUV"

// libyuvSoname is Debian's libyuv0 (libyuv.so.0).
const libyuvSoname = "libyuv.so.0"

// libyuvLib is libyuv loaded at run time: the conversions used here.
// YUY2ToI420 and UYVYToI420 take (src, src_stride, dst_y, dst_stride_y,
// dst_u, dst_stride_u, dst_v, dst_stride_v, width, height) and average
// the two rows' chroma rounding up, as packed422 does.
type libyuvLib struct {
	yuy2ToI420, uyvyToI420 uintptr
}

// libyuvLoad loads libyuv once per process (tests substitute a loader).
var libyuvLoad = sync.OnceValues(func() (*libyuvLib, error) {
	return loadLibyuv(os.Getenv(NoLibyuvEnv) != "", libyuvSoname)
})

func loadLibyuv(off bool, names ...string) (*libyuvLib, error) {
	if off {
		return nil, fmt.Errorf("libyuv turned off by %s", NoLibyuvEnv)
	}
	h, name, err := openLib(names...)
	if err != nil {
		return nil, fmt.Errorf("libyuv not loaded (apt-get install libyuv0): %v", err)
	}
	l := &libyuvLib{}
	if err := symbols(h, name, symbol{"YUY2ToI420", &l.yuy2ToI420}, symbol{"UYVYToI420", &l.uyvyToI420}); err != nil {
		_ = purego.Dlclose(h)
		return nil, err
	}
	return l, nil
}

// LibyuvUnavailable is nil when the YUYV and UYVY conversions run in
// libyuv, else why they run in Go (slower, same result).
func LibyuvUnavailable() error { _, err := libyuvLoad(); return err }

// yuvCall holds one libyuv call's arguments: passed to SyscallN as a
// slice, they cost no allocation per frame.
type yuvCall [10]uintptr

// packed422Libyuv converts f (YUYV or UYVY: fn) into dst with libyuv.
// f.Data and dst's planes are heap memory (camera buffers, Resize), which
// Go does not move.
func packed422Libyuv(fn uintptr, args *yuvCall, f *Frame, dst *I420) {
	w, h := f.Width, f.Height
	*args = yuvCall{
		uintptr(unsafe.Pointer(&f.Data[0])), uintptr(f.Step),
		uintptr(unsafe.Pointer(&dst.Y[0])), uintptr(w),
		uintptr(unsafe.Pointer(&dst.U[0])), uintptr(w / 2),
		uintptr(unsafe.Pointer(&dst.V[0])), uintptr(w / 2),
		uintptr(w), uintptr(h),
	}
	purego.SyscallN(fn, args[:]...)
	runtime.KeepAlive(f.Data)
	runtime.KeepAlive(dst)
}
