package render

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/telebridge/telebridge/pkg/camera/wire"
)

// TestConvertGolden: a 4x2 RGBA picture (red, green, blue, white; black,
// grey, yellow, cyan) in every delivered format, as hex. The YUV values
// were computed apart from the code (BT.601 limited range, integer
// arithmetic; chroma of a pixel pair from its rounded mean), the Bayer
// ones by reading each cell's channel off the picture.
func TestConvertGolden(t *testing.T) {
	src, _ := hex.DecodeString("ff0000ff" + "00ff00ff" + "0000ffff" + "ffffffff" +
		"000000ff" + "808080ff" + "ffff00ff" + "00ffffff")
	for _, tc := range []struct {
		f    wire.FourCC
		want string
	}{
		{wire.FmtRGB24, "ff000000ff000000ffffffff" + "000000808080ffff0000ffff"},
		{wire.FmtBGR24, "0000ff00ff00ff0000ffffff" + "00000080808000ffffffff00"},
		{wire.FmtGrey, "529029eb" + "107ed2a9"},
		{wire.FmtYUYV, "52489089" + "29b8eb77" + "10807e80" + "d25ba951"},
		{wire.FmtUYVY, "48528990" + "b82977eb" + "8010807e" + "5bd251a9"},
		{wire.FmtRGGB8, "ffff00ff" + "0080ffff"},
		{wire.FmtBGGR8, "00ffffff" + "0080ff00"},
		{wire.FmtGRBG8, "000000ff" + "008000ff"},
		{wire.FmtGBRG8, "000000ff" + "0080ffff"},
	} {
		t.Run(tc.f.String(), func(t *testing.T) {
			n, err := FrameSize(tc.f, 4, 2)
			if err != nil {
				t.Fatal(err)
			}
			dst := make([]byte, n)
			convert(dst, src, tc.f, 4, 2)
			if got := hex.EncodeToString(dst); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if _, err := FrameSize(wire.FmtY16, 4, 2); !errors.Is(err, ErrFormat) {
		t.Errorf("Y16: %v, want ErrFormat", err)
	}
}
