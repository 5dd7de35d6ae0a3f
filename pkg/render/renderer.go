package render

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/geom"
)

// Errors of the Renderer.
var (
	// ErrUnavailable is wrapped by New when EGL or OpenGL ES cannot be
	// loaded or started; the message says what to install.
	ErrUnavailable = errors.New("render: no EGL/OpenGL ES")
	// ErrClosed is returned by calls on a closed Renderer or Camera.
	ErrClosed = errors.New("render: closed")
	// ErrID is wrapped when a MeshID or BodyID is not one of this
	// Renderer's (or the body was removed).
	ErrID = errors.New("render: unknown id")
	// ErrPose is wrapped when a pose is not finite or its quaternion is
	// far from unit length.
	ErrPose = errors.New("render: bad pose")
)

// MeshID names geometry uploaded by UploadMesh.
type MeshID int

// BodyID names a body added by AddBody.
type BodyID int

// Lighting is the scene's light: one directional light (the sun) and
// ambient light, plus the background colour where nothing is drawn.
// Colours are linear RGB (or RGBA) in 0..1; a body's lit colour is its
// colour times (Ambient + Sun * max(0, cos angle between its surface
// normal and the direction to the sun)), clamped to 1.
type Lighting struct {
	// SunDirection is the direction the sunlight travels, world frame (any
	// length; zero turns the sun off). Straight down is (0, 0, -1).
	SunDirection r3.Vec
	Sun          [3]float32 // sun colour and strength
	Ambient      [3]float32 // ambient colour and strength
	Background   [4]float32 // clear colour, RGBA
}

// DefaultLighting is a sun from above, in front and to the left of the
// world's x axis, with enough ambient light that shadowed faces keep
// their colour, over a pale sky.
func DefaultLighting() Lighting {
	return Lighting{
		SunDirection: r3.Vec{X: 0.4, Y: -0.3, Z: -1},
		Sun:          [3]float32{0.75, 0.75, 0.72},
		Ambient:      [3]float32{0.3, 0.3, 0.32},
		Background:   [4]float32{0.62, 0.74, 0.86, 1},
	}
}

// Renderer owns a headless GL context on its own OS thread, the scene's
// geometry and bodies, and the cameras' framebuffers. Its methods are safe
// for concurrent use. Close it to free the context and its thread.
type Renderer struct {
	reqs      chan *request
	quit      chan struct{} // closed by Close
	done      chan struct{} // closed when the GL goroutine has returned
	closeOnce sync.Once
	info      string
	// packOnGPU: YUYV and UYVY are packed by a second GPU pass, not
	// converted on the CPU. True on hardware; on a software rasteriser
	// the pass costs more CPU than the Go conversion (docs/render.md).
	packOnGPU bool

	mu       sync.Mutex // guards the fields below
	meshes   []meshInfo
	bodies   []body
	lighting Lighting
}

// meshInfo is what the Go side keeps of uploaded geometry.
type meshInfo struct {
	triangles int
	freed     bool
}

// body is one placed mesh.
type body struct {
	mesh    MeshID
	color   [4]float32
	model   [4][4]float64 // pose as a matrix, world from mesh
	removed bool
}

// request is one job for the GL goroutine: fn for setup work, or (fn nil)
// the frame of cam.
type request struct {
	fn  func(d *device) error
	cam *Camera
	err chan error // buffered, 1
}

// New starts a Renderer: a goroutine locked to its OS thread opens an EGL
// display (Mesa's surfaceless platform, else an EGL device, else the
// default display), an OpenGL ES 3.0 context on it, and compiles the
// shaders. If EGL or GL ES cannot be loaded or started the error wraps
// ErrUnavailable and says what to install.
func New() (*Renderer, error) {
	r := &Renderer{
		reqs:     make(chan *request),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
		lighting: DefaultLighting(),
	}
	ready := make(chan error, 1)
	go r.loop(ready)
	if err := <-ready; err != nil {
		<-r.done
		return nil, err
	}
	return r, nil
}

// loop is the GL goroutine. It never unlocks its thread: the thread has
// held a GL context, so when the goroutine returns the runtime ends it.
func (r *Renderer) loop(ready chan<- error) {
	runtime.LockOSThread()
	defer close(r.done)
	d, err := newDevice()
	if err != nil {
		ready <- err
		return
	}
	defer d.close()
	r.info = d.info
	r.packOnGPU = !d.software
	ready <- nil
	for {
		select {
		case <-r.quit:
			return
		case q := <-r.reqs:
			if q.fn != nil {
				q.err <- q.fn(d)
			} else {
				q.err <- r.frame(d, q.cam)
			}
		}
	}
}

// Info describes the EGL display and GL implementation in use, e.g.
// "EGL surfaceless (Mesa Project), OpenGL ES 3.2 Mesa 22.3.6, llvmpipe
// (LLVM 15.0.6, 256 bits)".
func (r *Renderer) Info() string { return r.info }

// Close frees the GL context and everything on it and ends the GL
// goroutine; cameras of this Renderer return ErrClosed afterwards. It is
// safe to call more than once.
func (r *Renderer) Close() error {
	r.closeOnce.Do(func() { close(r.quit) })
	<-r.done
	return nil
}

// do runs fn on the GL goroutine and returns its error (allocates: for
// setup, not frames).
func (r *Renderer) do(fn func(d *device) error) error {
	q := &request{fn: fn, err: make(chan error, 1)}
	return r.send(q)
}

// send hands q to the GL goroutine and waits for its answer.
func (r *Renderer) send(q *request) error {
	select {
	case r.reqs <- q:
	case <-r.quit:
		return ErrClosed
	}
	select {
	case err := <-q.err:
		return err
	case <-r.done:
		return ErrClosed
	}
}

// UploadMesh validates m and copies it to the GPU (vertex and index
// buffers); m may be reused or dropped afterwards. Many bodies may share
// one mesh.
func (r *Renderer) UploadMesh(m *Mesh) (MeshID, error) {
	if err := m.Validate(); err != nil {
		return 0, err
	}
	var id MeshID
	err := r.do(func(d *device) error {
		n, err := d.upload(m)
		id = MeshID(n)
		return err
	})
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for len(r.meshes) <= int(id) {
		r.meshes = append(r.meshes, meshInfo{})
	}
	r.meshes[id] = meshInfo{triangles: m.Triangles()}
	return id, nil
}

// AddBody places mesh in the world at pose (T_world_mesh) with colour
// (RGBA, 0..1; alpha below 1 is blended over what is behind it).
func (r *Renderer) AddBody(mesh MeshID, color [4]float32, pose geom.Transform) (BodyID, error) {
	m, err := poseMatrix(pose)
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if int(mesh) < 0 || int(mesh) >= len(r.meshes) || r.meshes[mesh].freed {
		return 0, fmt.Errorf("%w: mesh %d", ErrID, mesh)
	}
	r.bodies = append(r.bodies, body{mesh: mesh, color: clampColor(color), model: m})
	return BodyID(len(r.bodies) - 1), nil
}

// SetPose moves body b to pose (T_world_mesh); the next frame shows it
// there. It makes no GL call and allocates nothing.
func (r *Renderer) SetPose(b BodyID, pose geom.Transform) error {
	m, err := poseMatrix(pose)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.checkBody(b); err != nil {
		return err
	}
	r.bodies[b].model = m
	return nil
}

// SetColor changes body b's colour (RGBA, 0..1).
func (r *Renderer) SetColor(b BodyID, color [4]float32) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.checkBody(b); err != nil {
		return err
	}
	r.bodies[b].color = clampColor(color)
	return nil
}

// RemoveBody takes body b out of the scene (its mesh stays uploaded).
func (r *Renderer) RemoveBody(b BodyID) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.checkBody(b); err != nil {
		return err
	}
	r.bodies[b].removed = true
	return nil
}

// SetLighting replaces the scene's lighting.
func (r *Renderer) SetLighting(l Lighting) {
	l.SunDirection = r3.Unit(l.SunDirection)
	if !finite(l.SunDirection.X) || !finite(l.SunDirection.Y) || !finite(l.SunDirection.Z) {
		l.SunDirection, l.Sun = r3.Vec{Z: -1}, [3]float32{}
	}
	r.mu.Lock()
	r.lighting = l
	r.mu.Unlock()
}

// Triangles returns how many triangles the scene's bodies have.
func (r *Renderer) Triangles() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, b := range r.bodies {
		if !b.removed {
			n += r.meshes[b.mesh].triangles
		}
	}
	return n
}

func (r *Renderer) checkBody(b BodyID) error {
	if int(b) < 0 || int(b) >= len(r.bodies) || r.bodies[b].removed {
		return fmt.Errorf("%w: body %d", ErrID, b)
	}
	return nil
}

func clampColor(c [4]float32) [4]float32 {
	for i, v := range c {
		if !(v >= 0) { // also NaN
			v = 0
		}
		c[i] = min(v, 1)
	}
	return c
}

// poseMatrix returns pose as a 4x4 row-major matrix (rotation normalised),
// or an error wrapping ErrPose.
func poseMatrix(t geom.Transform) ([4][4]float64, error) {
	q := t.Rotation
	p := t.Translation
	for _, v := range [...]float64{p.X, p.Y, p.Z, q.W, q.X, q.Y, q.Z} {
		if !finite(v) {
			return [4][4]float64{}, fmt.Errorf("%w: not finite", ErrPose)
		}
	}
	n := q.Norm()
	if math.Abs(n-1) > 0.01 {
		return [4][4]float64{}, fmt.Errorf("%w: quaternion length %g, want 1", ErrPose, n)
	}
	rot := geom.Quat{W: q.W / n, X: q.X / n, Y: q.Y / n, Z: q.Z / n}.Matrix()
	return [4][4]float64{
		{rot[0][0], rot[0][1], rot[0][2], p.X},
		{rot[1][0], rot[1][1], rot[1][2], p.Y},
		{rot[2][0], rot[2][1], rot[2][2], p.Z},
		{0, 0, 0, 1},
	}, nil
}

// inverseRigid returns the inverse of a rigid row-major 4x4 transform.
func inverseRigid(m [4][4]float64) [4][4]float64 {
	var o [4][4]float64
	for i := range 3 {
		for j := range 3 {
			o[i][j] = m[j][i]
		}
		o[i][3] = -(m[0][i]*m[0][3] + m[1][i]*m[1][3] + m[2][i]*m[2][3])
	}
	o[3][3] = 1
	return o
}

// mul returns a*b (row-major 4x4).
func mul(a, b *[4][4]float64) [4][4]float64 {
	var o [4][4]float64
	for i := range 4 {
		for j := range 4 {
			o[i][j] = a[i][0]*b[0][j] + a[i][1]*b[1][j] + a[i][2]*b[2][j] + a[i][3]*b[3][j]
		}
	}
	return o
}

// columnMajor stores m in GL's column-major float32 order.
func columnMajor(dst *[16]float32, m *[4][4]float64) {
	for c := range 4 {
		for r := range 4 {
			dst[4*c+r] = float32(m[r][c])
		}
	}
}

// Camera is one rendered camera: its intrinsics and framebuffer on the
// GPU. Render may be called from any goroutine; calls on one Camera are
// serialised.
type Camera struct {
	r    *Renderer
	in   Intrinsics
	proj [4][4]float64

	mu     sync.Mutex // serialises Render; guards the fields below
	req    request
	closed bool
	target int           // the framebuffer's index in the device
	view   [4][4]float64 // of the frame being rendered
	pixels []byte        // where the GL goroutine reads the picture to
	pack   int           // and how (packNone: RGBA)
	rgba   []byte        // the camera's own RGBA picture, for converted formats
}

// NewCamera creates a camera with intrinsics in (validated): a
// framebuffer of in.Width x in.Height with colour and depth.
func (r *Renderer) NewCamera(in Intrinsics) (*Camera, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	c := &Camera{r: r, in: in, proj: in.Projection()}
	c.req = request{cam: c, err: make(chan error, 1)}
	err := r.do(func(d *device) error {
		var err error
		c.target, err = d.newTarget(in.Width, in.Height)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Intrinsics returns the camera's intrinsics.
func (c *Camera) Intrinsics() Intrinsics { return c.in }

// FrameSize returns the bytes of one picture of this camera in format f,
// or an error wrapping ErrFormat.
func (c *Camera) FrameSize(f wire.FourCC) (int, error) {
	return FrameSize(f, c.in.Width, c.in.Height)
}

// Render draws the scene as seen from pose (T_world_optical, the optical
// frame of the package doc) and writes the picture into dst in format f
// (one of Formats), top row first, rows packed (step = width * bytes per
// pixel); dst must hold FrameSize bytes. The bodies' poses are those set
// before the call. In steady state it allocates nothing.
func (c *Camera) Render(pose geom.Transform, dst []byte, f wire.FourCC) error {
	size, err := c.FrameSize(f)
	if err != nil {
		return err
	}
	if len(dst) < size {
		return fmt.Errorf("%w: buffer of %d bytes for a %dx%d %s picture of %d bytes",
			ErrFormat, len(dst), c.in.Width, c.in.Height, f, size)
	}
	m, err := poseMatrix(pose)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	c.view = inverseRigid(m)
	c.pack = packNone
	switch f {
	case FmtRGBA:
		c.pixels = dst
	case wire.FmtYUYV, wire.FmtUYVY:
		if !c.r.packOnGPU {
			c.pixels = c.scratch()
			break
		}
		c.pixels, c.pack = dst, packYUYV
		if f == wire.FmtUYVY {
			c.pack = packUYVY
		}
	default:
		c.pixels = c.scratch()
	}
	err = c.r.send(&c.req)
	c.pixels = nil
	if err != nil || c.pack != packNone || f == FmtRGBA {
		return err
	}
	convert(dst, c.rgba, f, c.in.Width, c.in.Height)
	return nil
}

// scratch returns the camera's RGBA picture for formats converted on the
// CPU, allocated on first use.
func (c *Camera) scratch() []byte {
	if c.rgba == nil {
		c.rgba = make([]byte, 4*c.in.Width*c.in.Height)
	}
	return c.rgba
}

// Close frees the camera's framebuffer; Render returns ErrClosed
// afterwards.
func (c *Camera) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.rgba = nil
	return c.r.do(func(d *device) error { d.freeTarget(c.target); return nil })
}

// frame renders cam's picture into cam.pixels (on the GL goroutine).
func (r *Renderer) frame(d *device, cam *Camera) error {
	vp := mul(&cam.proj, &cam.view)
	r.mu.Lock()
	l := r.lighting
	d.draws = d.draws[:0]
	for _, b := range r.bodies {
		if b.removed {
			continue
		}
		d.draws = append(d.draws, draw{mesh: int(b.mesh), color: b.color, model: b.model})
	}
	r.mu.Unlock()
	return d.render(cam.target, &vp, &l, cam.pixels, cam.pack)
}

// draw is one body as the GL goroutine draws it.
type draw struct {
	mesh  int
	color [4]float32
	model [4][4]float64
}
