package graph

import (
	"fmt"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

// MaxVariants is how many settings besides its own a camera's H.264
// family encodes at most for the pages' caps.
const MaxVariants = 4

// SetVideo installs each camera's H.264 streams (by name, from
// NodeConfig.Cameras), which the node feeds from the image topics, or,
// when H.264 cannot be sent, why not (families nil). Call it before the
// console serves.
func (b *Backend) SetVideo(families map[string]*video.Family, unavailable string) {
	b.video, b.noVideo = families, unavailable
}

// OpenVideo implements console.Video: camera name's H.264 stream for a
// page's caps. The camera's size is that of its last image (its frame
// rate is not known here, so a frame-rate cap always gets its own
// encoder).
func (b *Backend) OpenVideo(name string, caps peer.Caps) (video.Source, error) {
	if u := b.VideoUnavailable(); u != "" {
		return nil, fmt.Errorf("camera %s: %s", name, u)
	}
	f, ok := b.video[name]
	if !ok {
		return nil, fmt.Errorf("no camera %q", name)
	}
	w, h := f.FrameSize()
	s, err := f.Source(caps.Fit(w, h, 0))
	if err != nil {
		return nil, fmt.Errorf("camera %s: %w", name, err)
	}
	return s, nil
}

// VideoUnavailable implements console.Video: why the cameras cannot be
// sent as H.264 ("" when they can).
func (b *Backend) VideoUnavailable() string {
	switch {
	case b.noVideo != "":
		return b.noVideo
	case len(b.video) == 0:
		return "no camera"
	}
	return ""
}

var _ console.Video = (*Backend)(nil)
