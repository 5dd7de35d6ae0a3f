package node

import (
	"bytes"
	"testing"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
)

func TestMessagesFill(t *testing.T) {
	info, err := NewInfoManager("front_left", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := info.Set(frontLeft.Info()); err != nil {
		t.Fatal(err)
	}
	m := NewMessages(info)
	m.Image.Data = make([]byte, 0, 752*480)
	h := camera.Header{Stamp: time.Unix(100, 5), FrameID: "front_left_optical_frame"}
	raw := bytes.Repeat([]byte{7}, 752*480)
	f := camera.Frame{Header: h, Width: 752, Height: 480, Encoding: "bayer_grbg8", Step: 752, Data: raw}
	if m.Fill(&f) {
		t.Fatal("raw frame reported compressed")
	}
	if m.Image.Header != h || m.Info.Header != h || m.Image.Encoding != "bayer_grbg8" || !bytes.Equal(m.Image.Data, raw) {
		t.Errorf("image %+v", m.Image.Header)
	}
	if m.Info.K != frontLeft.CameraMatrix || m.Info.Width != 752 {
		t.Errorf("info %+v", m.Info)
	}
	if a := testing.AllocsPerRun(50, func() { m.Fill(&f) }); a != 0 {
		t.Errorf("Fill allocates %.0f times per frame", a)
	}

	jpeg := camera.Frame{Header: h, Width: 640, Height: 480, Encoding: "jpeg", Compressed: true, Data: []byte{0xff, 0xd8, 0xff, 0xd9}}
	plain := NewMessages(nil)
	if !plain.Fill(&jpeg) {
		t.Fatal("jpeg frame not reported compressed")
	}
	if plain.Compressed.Format != "jpeg" || len(plain.Compressed.Data) != 4 || plain.Info.K[0] != 0 || plain.Info.Width != 640 || plain.Info.Header != h {
		t.Errorf("compressed %+v info %+v", plain.Compressed, plain.Info)
	}
}
