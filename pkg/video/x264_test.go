package video

import (
	"bytes"
	"testing"
)

func TestX264EncodesKeyframesOnRequest(t *testing.T) {
	requireX264(t)
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

// TestX264BitrateFollowsChanges: the bitrate changed while running takes
// effect: 4 s at 1 Mbit/s, then 4 s at 300 kbit/s, then 4 s at 2 Mbit/s
// (the moving pattern, encoded as fast as it goes; x264 counts time in
// frames).
func TestX264BitrateFollowsChanges(t *testing.T) {
	requireX264(t)
	enc, err := NewEncoder(EncoderConfig{Width: 640, Height: 480, FrameRate: 30, Bitrate: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	m := newMovingPattern(640, 480)
	var pic I420
	k := 0
	for _, target := range []int{1_000_000, 300_000, 2_000_000} {
		if err := enc.SetBitrate(target); err != nil {
			t.Fatal(err)
		}
		var bits [4]int
		for s := 0; s < 4; s++ {
			for f := 0; f < 30; f++ {
				m.frame(&pic, k)
				k++
				au, _, err := enc.Encode(&pic, false)
				if err != nil {
					t.Fatal(err)
				}
				bits[s] += 8 * len(au)
			}
		}
		// The first second after a change still carries the old rate in
		// x264's buffer; the last three must be near the target.
		got := (bits[1] + bits[2] + bits[3]) / 3
		t.Logf("target %7d bit/s: seconds 1..4 %v bit/s", target, bits)
		if got < target*6/10 || got > target*14/10 {
			t.Errorf("target %d bit/s: %d bit/s over seconds 2..4, want within 40 %%", target, got)
		}
	}
}

// annexB is the h264 candidate's stream file: the access units back to back.
func annexB(aus [][]byte, _, _ int) []byte { return bytes.Join(aus, nil) }
