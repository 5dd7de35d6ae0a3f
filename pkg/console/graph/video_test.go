package graph_test

import (
	"strings"
	"testing"

	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// nullEncoder stands in for x264: one byte per picture.
type nullEncoder struct{}

func (nullEncoder) Encode(*video.I420, bool) ([]byte, bool, error) { return []byte{0}, true, nil }
func (nullEncoder) SetBitrate(int) error                           { return nil }
func (nullEncoder) Close() error                                   { return nil }

// TestVideo: the graph backend serves each camera's H.264 family: the
// camera's own stream for caps it meets, a smaller setting for smaller
// caps (sized from the last image), errors for unknown cameras and when
// video is unavailable.
func TestVideo(t *testing.T) {
	b := newBackend(t, config(), &fakePort{})
	if u := b.VideoUnavailable(); u == "" {
		t.Fatal("video available before SetVideo")
	}
	if _, err := b.OpenVideo("front", peer.Caps{}); err == nil {
		t.Fatal("opened without video")
	}
	fam, err := video.NewFamily(video.Config{Name: "front", NewEncoder: func(video.EncoderConfig) (video.Encoder, error) { return nullEncoder{}, nil }}, graph.MaxVariants)
	if err != nil {
		t.Fatal(err)
	}
	defer fam.Close()
	b.SetVideo(map[string]*video.Family{"front": fam}, "")
	if u := b.VideoUnavailable(); u != "" {
		t.Fatalf("unavailable: %q", u)
	}
	own, err := b.OpenVideo("front", peer.Caps{MaxBitrate: 500_000})
	if err != nil {
		t.Fatal(err)
	}
	fam.Feed(&video.Frame{Encoding: "mono8", Width: 640, Height: 480, Step: 640, Data: make([]byte, 640*480)})
	small, err := b.OpenVideo("front", peer.Caps{Width: 320, Height: 240})
	if err != nil || small == own {
		t.Fatalf("320x240: %v, the camera's own %v", err, small == own)
	}
	if _, err := b.OpenVideo("nope", peer.Caps{}); err == nil || !strings.Contains(err.Error(), "no camera") {
		t.Fatalf("unknown camera: %v", err)
	}
	b.SetVideo(nil, video.ErrNoH264.Error())
	if _, err := b.OpenVideo("front", peer.Caps{}); err == nil || !strings.Contains(err.Error(), video.ErrNoH264.Error()) {
		t.Fatalf("without H.264: %v", err)
	}
}
