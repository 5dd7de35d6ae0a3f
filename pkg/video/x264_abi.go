package video

import "unsafe"

// libx264's ABI for the one build this package knows: X264_BUILD 164
// (x264 0.164, Debian 12 and 13, Ubuntu 22.04 and 24.04). Its soname is
// libx264.so.164 and it exports x264_encoder_open_164; loadX264 checks
// both, so a library of another build is refused instead of misread.
//
// x264_param_t (1 024 bytes in build 164) is never laid out here: it
// lives in an opaque buffer filled by x264_param_default_preset and
// changed through x264_param_parse, except for the picture size, which
// x264_param_parse cannot set (i_width and i_height at fixed offsets
// near its start, checked at load time against the defaults around
// them). The three small structures below are laid out exactly;
// TestX264Layout compares them with x264.h when a C compiler and the
// header are there, and every encoding test decodes the result.
const (
	x264Build      = 164
	x264Soname     = "libx264.so.164"
	x264OpenSymbol = "x264_encoder_open_164"

	// x264ParamBytes is the opaque buffer for x264_param_t: 8 times the
	// 1 024 bytes of build 164, 8-byte aligned (a []uint64).
	x264ParamBytes = 8192
	// Offsets in x264_param_t [bytes] (after uint32 cpu and six ints).
	x264ParamWidth    = 28
	x264ParamHeight   = 32
	x264ParamCSP      = 36
	x264ParamBitDepth = 40

	x264CSPI420  = 0x0002 // X264_CSP_I420
	x264TypeAuto = 0x0000 // X264_TYPE_AUTO
	x264TypeIDR  = 0x0001 // X264_TYPE_IDR

	x264PictureSize = 240 // sizeof(x264_picture_t)
	x264ImageSize   = 56  // sizeof(x264_image_t)
	x264NALSize     = 40  // sizeof(x264_nal_t)
)

// x264Image is x264_image_t.
type x264Image struct {
	csp    int32    // i_csp
	planes int32    // i_plane
	stride [4]int32 // i_stride [bytes]
	plane  [4]*byte // plane (read by x264; never kept after the call)
}

// x264Picture is x264_picture_t: the fields this package sets, then the
// rest (prop, hrd_timing, extra_sei, opaque) as bytes, zeroed by
// x264_picture_init.
type x264Picture struct {
	typ       int32     // i_type
	qpplus1   int32     // i_qpplus1
	picStruct int32     // i_pic_struct
	keyframe  int32     // b_keyframe (output)
	pts, dts  int64     // i_pts, i_dts
	param     uintptr   // x264_param_t *param
	img       x264Image // img
	rest      [x264PictureSize - 96]byte
}

// x264NAL is x264_nal_t. x264 writes the NAL units of one access unit
// back to back, start codes included, so the first one's payload and the
// encoder's return value give the whole access unit.
type x264NAL struct {
	_          [5]int32 // i_ref_idc, i_type, b_long_startcode, i_first_mb, i_last_mb
	payloadLen int32    // i_payload [bytes]
	payload    *byte    // p_payload
	padding    int32    // i_padding
	_          int32
}

// Compile-time size checks: a mismatch makes a negative array length.
var (
	_ [x264PictureSize - unsafe.Sizeof(x264Picture{})]byte
	_ [unsafe.Sizeof(x264Picture{}) - x264PictureSize]byte
	_ [x264ImageSize - unsafe.Sizeof(x264Image{})]byte
	_ [unsafe.Sizeof(x264Image{}) - x264ImageSize]byte
	_ [x264NALSize - unsafe.Sizeof(x264NAL{})]byte
	_ [unsafe.Sizeof(x264NAL{}) - x264NALSize]byte
	_ [unsafe.Offsetof(x264Picture{}.img) - 40]byte
	_ [40 - unsafe.Offsetof(x264Picture{}.img)]byte
	_ [unsafe.Offsetof(x264NAL{}.payload) - 24]byte
	_ [24 - unsafe.Offsetof(x264NAL{}.payload)]byte
)
