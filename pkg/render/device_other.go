//go:build !linux

package render

import "fmt"

// Install is the one line New's error gives when EGL or OpenGL ES cannot
// be loaded.
const Install = "headless EGL rendering is built for Linux only"

// device is the GL side of a Renderer; on this system there is none.
type device struct {
	info     string
	software bool
	draws    []draw
}

const (
	packNone = iota
	packYUYV
	packUYVY
)

func newDevice() (*device, error) { return nil, fmt.Errorf("%w: %s", ErrUnavailable, Install) }

func (d *device) close()                                                   {}
func (d *device) upload(*Mesh) (int, error)                                { return 0, ErrUnavailable }
func (d *device) newTarget(int, int) (int, error)                          { return 0, ErrUnavailable }
func (d *device) freeTarget(int)                                           {}
func (d *device) render(int, *[4][4]float64, *Lighting, []byte, int) error { return ErrUnavailable }
