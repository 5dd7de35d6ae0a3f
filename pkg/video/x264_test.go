//go:build !nox264

package video

import "testing"

func TestX264EncodesKeyframesOnRequest(t *testing.T) {
	enc, err := NewEncoder(EncoderConfig{Width: 640, Height: 480, FrameRate: 30, Bitrate: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	m := newMovingPattern(640, 480)
	var pic I420
	keys := 0
	for k := 0; k < 90; k++ {
		m.frame(&pic, k)
		au, key, err := enc.Encode(&pic, k == 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(au) == 0 {
			t.Fatalf("frame %d: empty access unit", k)
		}
		if key {
			keys++
			sps, pps := ParameterSets(au)
			if sps == nil || pps == nil {
				t.Errorf("frame %d: keyframe without SPS/PPS", k)
			}
		}
		if (k == 0 || k == 10 || k == 70) != key {
			t.Errorf("frame %d: key = %v (want IDR at 0, 10 forced, 70 periodic)", k, key)
		}
	}
	if err := enc.SetBitrate(300_000); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d keyframes", keys)
}

func init() { addCandidate("h264", candidate{open: NewEncoder, ext: "h264", wrap: annexB}) }
