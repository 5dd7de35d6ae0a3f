//go:build linux

package render

import (
	"fmt"
	"strings"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
	"gonum.org/v1/gonum/spatial/r3"
)

// device is the GL side of a Renderer: the EGL display and context, the
// shader program, the meshes' buffers and the cameras' framebuffers. Only
// the Renderer's GL goroutine touches it.
type device struct {
	g                 *gles
	dpy, ctx, surface uintptr
	info              string
	software          bool // a CPU rasteriser (llvmpipe, softpipe, SwiftShader)

	prog                                         uint32
	uMVP, uModel, uColor, uToSun, uSun, uAmbient int32
	packProg                                     uint32
	uOrder                                       int32
	meshes                                       []gpuMesh
	targets                                      []target
	draws                                        []draw

	// split, when set (BenchmarkReadback), times the rasterisation
	// (glFinish) apart from the read-back of RGBA frames.
	split *frameSplit

	// args holds a frame's call arguments: purego.SyscallN would move a
	// variadic argument list to the heap on every call (it is marked
	// go:uintptrescapes); a slice of this array is already there.
	args [8]uintptr

	// Uniform values handed to GL by pointer: fields of this heap object,
	// so no per-call allocation and no pointer to a moving stack.
	mvp, model [16]float32
	color      [4]float32
	vec        [3]float32
}

type gpuMesh struct {
	vao, vbo, ibo uint32
	count         int32 // indices
	doubleSided   bool
}

// target is a camera's framebuffers: fbo draws the scene into a colour
// texture and a depth renderbuffer; packFBO, half as wide, receives the
// texture packed into 4:2:2 (two pixels in one RGBA texel) for YUYV and
// UYVY read-back.
type target struct {
	fbo, tex, depth    uint32
	packFBO, packColor uint32
	width, height      int
	free               bool
}

// Packings of the read-back (device.render).
const (
	packNone = iota // RGBA as drawn
	packYUYV
	packUYVY
)

// Vertex and fragment shaders: Lambert shading per vertex (flat faces
// carry flat normals), colour interpolated. Poses are rigid, so the
// model matrix's upper 3x3 turns normals.
const vertexShader = `#version 300 es
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 mvp;
uniform mat4 model;
uniform vec4 color;
uniform vec3 toSun;
uniform vec3 sun;
uniform vec3 ambient;
out vec4 shade;
void main() {
	vec3 n = normalize(mat3(model) * normal);
	vec3 light = ambient + sun * max(dot(n, toSun), 0.0);
	shade = vec4(min(color.rgb * light, vec3(1.0)), color.a);
	gl_Position = mvp * vec4(position, 1.0);
}
`

const fragmentShader = `#version 300 es
precision mediump float;
in vec4 shade;
out vec4 outColor;
void main() {
	outColor = shade;
}
`

// The packing pass: a triangle covering the half-width framebuffer; each
// fragment reads two neighbouring pixels of the picture and writes
// Y0 U Y1 V (order 0) or U Y0 V Y1 (order 1) with the integer BT.601
// arithmetic of format.go, so GPU and CPU give the same bytes.
const packVertexShader = `#version 300 es
void main() {
	vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID & 2) * 2 - 1));
	gl_Position = vec4(p, 0.0, 1.0);
}
`

const packFragmentShader = `#version 300 es
precision highp float;
precision highp int;
uniform highp sampler2D picture;
uniform int order;
out vec4 outColor;
int luma(ivec3 c) { return ((66 * c.r + 129 * c.g + 25 * c.b + 128) >> 8) + 16; }
void main() {
	ivec2 p = ivec2(gl_FragCoord.xy);
	ivec3 a = ivec3(texelFetch(picture, ivec2(2 * p.x, p.y), 0).rgb * 255.0 + 0.5);
	ivec3 b = ivec3(texelFetch(picture, ivec2(2 * p.x + 1, p.y), 0).rgb * 255.0 + 0.5);
	ivec3 m = (a + b + 1) >> 1;
	int u = ((-38 * m.r - 74 * m.g + 112 * m.b + 128) >> 8) + 128;
	int v = ((112 * m.r - 94 * m.g - 18 * m.b + 128) >> 8) + 128;
	vec4 yuyv = vec4(float(luma(a)), float(u), float(luma(b)), float(v)) / 255.0;
	outColor = order == 0 ? yuyv : yuyv.yxwz;
}
`

// newDevice loads the libraries and makes a GL ES 3.0 context current on
// the calling (locked) thread.
func newDevice() (*device, error) {
	g, err := load()
	if err != nil {
		return nil, err
	}
	d := &device{g: g}
	if err := d.open(); err != nil {
		d.close()
		return nil, err
	}
	if err := d.compile(); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// open picks a display and makes a context current.
func (d *device) open() error {
	g := d.g
	r, _, _ := purego.SyscallN(g.eglQueryString, 0, eglExtensions)
	ext := " " + gostr(r) + " "
	type candidate struct {
		name     string
		platform uintptr
		native   uintptr
	}
	var cands []candidate
	if g.eglGetPlatformDisplayEXT != 0 && strings.Contains(ext, " EGL_MESA_platform_surfaceless ") {
		cands = append(cands, candidate{"surfaceless", eglPlatformSurfaceless, 0})
	}
	if g.eglGetPlatformDisplayEXT != 0 && g.eglQueryDevicesEXT != 0 && strings.Contains(ext, " EGL_EXT_platform_device ") {
		devs := make([]uintptr, 8)
		var n int32
		purego.SyscallN(g.eglQueryDevicesEXT, uintptr(len(devs)), uintptr(unsafe.Pointer(&devs[0])), uintptr(unsafe.Pointer(&n)))
		for i := 0; i < int(n) && i < len(devs); i++ {
			cands = append(cands, candidate{fmt.Sprintf("device %d", i), eglPlatformDevice, devs[i]})
		}
	}
	cands = append(cands, candidate{"default display", 0, 0})
	var errs []string
	for _, c := range cands {
		if err := d.tryDisplay(c.platform, c.native); err != nil {
			errs = append(errs, c.name+": "+err.Error())
			continue
		}
		r, _, _ := purego.SyscallN(g.eglQueryString, d.dpy, eglVendor)
		renderer := d.glString(glRenderer)
		d.info = fmt.Sprintf("EGL %s (%s), %s, %s", c.name, gostr(r), d.glString(glVersion), renderer)
		lr := strings.ToLower(renderer)
		d.software = strings.Contains(lr, "llvmpipe") || strings.Contains(lr, "softpipe") || strings.Contains(lr, "swiftshader") || strings.Contains(lr, "swrast")
		return nil
	}
	return fmt.Errorf("%w: no EGL display gives an OpenGL ES 3.0 context (%s): %s", ErrUnavailable, strings.Join(errs, "; "), Install)
}

// tryDisplay opens one display; on failure it leaves nothing open.
func (d *device) tryDisplay(platform, native uintptr) error {
	g := d.g
	var dpy uintptr
	if platform != 0 {
		dpy, _, _ = purego.SyscallN(g.eglGetPlatformDisplayEXT, platform, native, 0)
	} else {
		dpy, _, _ = purego.SyscallN(g.eglGetDisplay, 0)
	}
	if dpy == 0 {
		return fmt.Errorf("no display (EGL error %#x)", d.eglError())
	}
	var major, minor int32
	if ok, _, _ := purego.SyscallN(g.eglInitialize, dpy, uintptr(unsafe.Pointer(&major)), uintptr(unsafe.Pointer(&minor))); ok == 0 {
		return fmt.Errorf("eglInitialize: EGL error %#x", d.eglError())
	}
	fail := func(what string) error {
		err := fmt.Errorf("%s: EGL error %#x", what, d.eglError())
		purego.SyscallN(g.eglTerminate, dpy)
		return err
	}
	if ok, _, _ := purego.SyscallN(g.eglBindAPI, eglOpenGLESAPI); ok == 0 {
		return fail("eglBindAPI(OpenGL ES)")
	}
	var cfg uintptr
	var n int32
	for _, surf := range []int32{eglPbufferBit, 0} {
		attrs := []int32{eglRenderableType, eglOpenGLES3Bit, eglSurfaceType, surf, eglNone}
		purego.SyscallN(g.eglChooseConfig, dpy, uintptr(unsafe.Pointer(&attrs[0])), uintptr(unsafe.Pointer(&cfg)), 1, uintptr(unsafe.Pointer(&n)))
		if n > 0 {
			break
		}
	}
	if n == 0 {
		return fail("no OpenGL ES 3 config")
	}
	ctxAttrs := []int32{eglContextMajor, 3, eglContextMinor, 0, eglNone}
	ctx, _, _ := purego.SyscallN(g.eglCreateContext, dpy, cfg, 0, uintptr(unsafe.Pointer(&ctxAttrs[0])))
	if ctx == 0 {
		return fail("eglCreateContext(OpenGL ES 3.0)")
	}
	surface := uintptr(0)
	if ok, _, _ := purego.SyscallN(g.eglMakeCurrent, dpy, 0, 0, ctx); ok == 0 {
		// No EGL_KHR_surfaceless_context: a 1x1 pbuffer to be current
		// on (we draw into framebuffer objects anyway).
		pb := []int32{eglWidth, 1, eglHeight, 1, eglNone}
		surface, _, _ = purego.SyscallN(g.eglCreatePbufferSurface, dpy, cfg, uintptr(unsafe.Pointer(&pb[0])))
		if ok, _, _ := purego.SyscallN(g.eglMakeCurrent, dpy, surface, surface, ctx); surface == 0 || ok == 0 {
			purego.SyscallN(g.eglDestroyContext, dpy, ctx)
			return fail("eglMakeCurrent (surfaceless and 1x1 pbuffer)")
		}
	}
	d.dpy, d.ctx, d.surface = dpy, ctx, surface
	return nil
}

func (d *device) eglError() uintptr {
	r, _, _ := purego.SyscallN(d.g.eglGetError)
	return r
}

func (d *device) glString(name uintptr) string {
	r, _, _ := purego.SyscallN(d.g.GetString, name)
	return gostr(r)
}

// glError returns the pending GL error as an error naming what, or nil.
func (d *device) glError(what string) error {
	if e, _, _ := purego.SyscallN(d.g.GetError); e != glNoError {
		return fmt.Errorf("render: %s: GL error %#x", what, e)
	}
	return nil
}

// close frees the context and the display (and with them every GL
// object) and releases the thread.
func (d *device) close() {
	g := d.g
	if d.dpy != 0 {
		purego.SyscallN(g.eglMakeCurrent, d.dpy, 0, 0, 0)
		if d.surface != 0 {
			purego.SyscallN(g.eglDestroySurface, d.dpy, d.surface)
		}
		if d.ctx != 0 {
			purego.SyscallN(g.eglDestroyContext, d.dpy, d.ctx)
		}
		purego.SyscallN(g.eglTerminate, d.dpy)
		purego.SyscallN(g.eglReleaseThread)
		d.dpy = 0
	}
}

// compile builds the shader program and finds its uniforms.
func (d *device) compile() error {
	g := d.g
	p, err := d.program(vertexShader, fragmentShader)
	if err != nil {
		return err
	}
	d.prog = uint32(p)
	for _, u := range []struct {
		name string
		loc  *int32
	}{{"mvp", &d.uMVP}, {"model", &d.uModel}, {"color", &d.uColor}, {"toSun", &d.uToSun}, {"sun", &d.uSun}, {"ambient", &d.uAmbient}} {
		if *u.loc, err = d.uniform(p, u.name); err != nil {
			return err
		}
	}
	if p, err = d.program(packVertexShader, packFragmentShader); err != nil {
		return err
	}
	d.packProg = uint32(p)
	if d.uOrder, err = d.uniform(p, "order"); err != nil {
		return err
	}
	pic, err := d.uniform(p, "picture")
	if err != nil {
		return err
	}
	purego.SyscallN(g.UseProgram, p)
	purego.SyscallN(g.Uniform1i, uintptr(pic), 0) // texture unit 0
	purego.SyscallN(g.PixelStorei, glPackAlignment, 1)
	return d.glError("compiling the shaders")
}

// uniform returns the location of a program's uniform.
func (d *device) uniform(p uintptr, name string) (int32, error) {
	b := cstr(name)
	r, _, _ := purego.SyscallN(d.g.GetUniformLocation, p, uintptr(unsafe.Pointer(&b[0])))
	if int32(r) < 0 {
		return 0, fmt.Errorf("render: shader has no uniform %q", name)
	}
	return int32(r), nil
}

// program compiles and links a vertex and a fragment shader.
func (d *device) program(vsrc, fsrc string) (uintptr, error) {
	g := d.g
	vs, err := d.shader(glVertexShader, vsrc)
	if err != nil {
		return 0, err
	}
	fs, err := d.shader(glFragmentShader, fsrc)
	if err != nil {
		purego.SyscallN(g.DeleteShader, vs)
		return 0, err
	}
	p, _, _ := purego.SyscallN(g.CreateProgram)
	purego.SyscallN(g.AttachShader, p, vs)
	purego.SyscallN(g.AttachShader, p, fs)
	purego.SyscallN(g.LinkProgram, p)
	purego.SyscallN(g.DeleteShader, vs)
	purego.SyscallN(g.DeleteShader, fs)
	var ok int32
	purego.SyscallN(g.GetProgramiv, p, glLinkStatus, uintptr(unsafe.Pointer(&ok)))
	if ok == 0 {
		log := d.infoLog(g.GetProgramiv, g.GetProgramInfoLog, p)
		purego.SyscallN(g.DeleteProgram, p)
		return 0, fmt.Errorf("render: linking the shaders: %s", log)
	}
	return p, nil
}

func (d *device) shader(kind uintptr, src string) (uintptr, error) {
	g := d.g
	s, _, _ := purego.SyscallN(g.CreateShader, kind)
	b := cstr(src)
	ptrs := []uintptr{uintptr(unsafe.Pointer(&b[0]))}
	purego.SyscallN(g.ShaderSource, s, 1, uintptr(unsafe.Pointer(&ptrs[0])), 0)
	purego.SyscallN(g.CompileShader, s)
	var ok int32
	purego.SyscallN(g.GetShaderiv, s, glCompileStatus, uintptr(unsafe.Pointer(&ok)))
	if ok == 0 {
		log := d.infoLog(g.GetShaderiv, g.GetShaderInfoLog, s)
		purego.SyscallN(g.DeleteShader, s)
		return 0, fmt.Errorf("render: compiling a shader: %s", log)
	}
	b[0] = 0 // keep b alive past the calls that read it
	return s, nil
}

func (d *device) infoLog(getiv, getLog, obj uintptr) string {
	var n int32
	purego.SyscallN(getiv, obj, glInfoLogLength, uintptr(unsafe.Pointer(&n)))
	if n <= 0 {
		return "(no log)"
	}
	b := make([]byte, n)
	purego.SyscallN(getLog, obj, uintptr(n), 0, uintptr(unsafe.Pointer(&b[0])))
	return strings.TrimRight(string(b), "\x00\n")
}

// upload copies m (validated) into a vertex array of interleaved position
// and normal, and an index buffer.
func (d *device) upload(m *Mesh) (int, error) {
	g := d.g
	nv := m.Vertices()
	inter := make([]float32, 6*nv)
	for i := range nv {
		copy(inter[6*i:6*i+3], m.Positions[3*i:3*i+3])
		copy(inter[6*i+3:6*i+6], m.Normals[3*i:3*i+3])
	}
	var gm gpuMesh
	purego.SyscallN(g.GenVertexArrays, 1, uintptr(unsafe.Pointer(&gm.vao)))
	purego.SyscallN(g.BindVertexArray, uintptr(gm.vao))
	purego.SyscallN(g.GenBuffers, 1, uintptr(unsafe.Pointer(&gm.vbo)))
	purego.SyscallN(g.BindBuffer, glArrayBuffer, uintptr(gm.vbo))
	purego.SyscallN(g.BufferData, glArrayBuffer, uintptr(4*len(inter)), uintptr(unsafe.Pointer(&inter[0])), glStaticDraw)
	purego.SyscallN(g.GenBuffers, 1, uintptr(unsafe.Pointer(&gm.ibo)))
	purego.SyscallN(g.BindBuffer, glElementArrayBuffer, uintptr(gm.ibo))
	purego.SyscallN(g.BufferData, glElementArrayBuffer, uintptr(4*len(m.Indices)), uintptr(unsafe.Pointer(&m.Indices[0])), glStaticDraw)
	purego.SyscallN(g.VertexAttribPointer, 0, 3, glFloat, 0, 24, 0)
	purego.SyscallN(g.EnableVertexAttribArray, 0)
	purego.SyscallN(g.VertexAttribPointer, 1, 3, glFloat, 0, 24, 12)
	purego.SyscallN(g.EnableVertexAttribArray, 1)
	purego.SyscallN(g.BindVertexArray, 0)
	gm.count = int32(len(m.Indices))
	gm.doubleSided = m.DoubleSided
	if err := d.glError("uploading a mesh"); err != nil {
		return 0, err
	}
	d.meshes = append(d.meshes, gm)
	return len(d.meshes) - 1, nil
}

// newTarget makes a framebuffer of width x height with an RGBA8 colour
// and a 24-bit depth renderbuffer.
func (d *device) newTarget(width, height int) (int, error) {
	g := d.g
	t := target{width: width, height: height}
	t.tex = d.texture(width, height)
	purego.SyscallN(g.GenFramebuffers, 1, uintptr(unsafe.Pointer(&t.fbo)))
	purego.SyscallN(g.BindFramebuffer, glFramebuffer, uintptr(t.fbo))
	purego.SyscallN(g.FramebufferTexture2D, glFramebuffer, glColorAttachment0, glTexture2D, uintptr(t.tex), 0)
	purego.SyscallN(g.GenRenderbuffers, 1, uintptr(unsafe.Pointer(&t.depth)))
	purego.SyscallN(g.BindRenderbuffer, glRenderbuffer, uintptr(t.depth))
	purego.SyscallN(g.RenderbufferStorage, glRenderbuffer, glDepthComponent24, uintptr(width), uintptr(height))
	purego.SyscallN(g.FramebufferRenderbuffer, glFramebuffer, glDepthAttachment, glRenderbuffer, uintptr(t.depth))
	st, _, _ := purego.SyscallN(g.CheckFramebufferStatus, glFramebuffer)
	if st == glFramebufferComplete {
		purego.SyscallN(g.GenFramebuffers, 1, uintptr(unsafe.Pointer(&t.packFBO)))
		purego.SyscallN(g.BindFramebuffer, glFramebuffer, uintptr(t.packFBO))
		purego.SyscallN(g.GenRenderbuffers, 1, uintptr(unsafe.Pointer(&t.packColor)))
		purego.SyscallN(g.BindRenderbuffer, glRenderbuffer, uintptr(t.packColor))
		purego.SyscallN(g.RenderbufferStorage, glRenderbuffer, glRGBA8, uintptr(width/2), uintptr(height))
		purego.SyscallN(g.FramebufferRenderbuffer, glFramebuffer, glColorAttachment0, glRenderbuffer, uintptr(t.packColor))
		st, _, _ = purego.SyscallN(g.CheckFramebufferStatus, glFramebuffer)
	}
	if err := d.glError("creating a framebuffer"); err != nil || st != glFramebufferComplete {
		d.deleteTarget(&t)
		if err == nil {
			err = fmt.Errorf("render: framebuffer %dx%d incomplete (status %#x)", width, height, st)
		}
		return 0, err
	}
	for i := range d.targets { // reuse a freed slot
		if d.targets[i].free {
			d.targets[i] = t
			return i, nil
		}
	}
	d.targets = append(d.targets, t)
	return len(d.targets) - 1, nil
}

func (d *device) freeTarget(i int) {
	if i >= 0 && i < len(d.targets) && !d.targets[i].free {
		d.deleteTarget(&d.targets[i])
		d.targets[i].free = true
	}
}

func (d *device) deleteTarget(t *target) {
	g := d.g
	purego.SyscallN(g.BindFramebuffer, glFramebuffer, 0)
	purego.SyscallN(g.DeleteFramebuffers, 1, uintptr(unsafe.Pointer(&t.fbo)))
	purego.SyscallN(g.DeleteTextures, 1, uintptr(unsafe.Pointer(&t.tex)))
	purego.SyscallN(g.DeleteRenderbuffers, 1, uintptr(unsafe.Pointer(&t.depth)))
	if t.packFBO != 0 {
		purego.SyscallN(g.DeleteFramebuffers, 1, uintptr(unsafe.Pointer(&t.packFBO)))
		purego.SyscallN(g.DeleteRenderbuffers, 1, uintptr(unsafe.Pointer(&t.packColor)))
	}
}

// texture makes an RGBA8 texture of width x height, sampled texel for
// texel.
func (d *device) texture(width, height int) uint32 {
	g := d.g
	var tex uint32
	purego.SyscallN(g.GenTextures, 1, uintptr(unsafe.Pointer(&tex)))
	purego.SyscallN(g.BindTexture, glTexture2D, uintptr(tex))
	purego.SyscallN(g.TexStorage2D, glTexture2D, 1, glRGBA8, uintptr(width), uintptr(height))
	purego.SyscallN(g.TexParameteri, glTexture2D, glTextureMinFilter, glNearest)
	purego.SyscallN(g.TexParameteri, glTexture2D, glTextureMagFilter, glNearest)
	purego.SyscallN(g.BindTexture, glTexture2D, 0)
	return tex
}

// render draws d.draws into target ti with view-projection vp and lights
// l, then reads the picture into dst: RGBA (width*height*4 bytes) for
// packNone, else packed 4:2:2 by a second pass (width*height*2 bytes).
// The projection puts the picture's top row in GL's row 0, so
// glReadPixels returns it top row first. It allocates nothing.
func (d *device) render(ti int, vp *[4][4]float64, l *Lighting, dst []byte, pack int) error {
	g := d.g
	t := &d.targets[ti]
	d.c(g.BindFramebuffer, glFramebuffer, uintptr(t.fbo))
	d.c(g.Viewport, 0, 0, uintptr(t.width), uintptr(t.height))
	bg := l.Background
	d.c(g.ClearColor, f32(bg[0]), f32(bg[1]), f32(bg[2]), f32(bg[3]))
	d.c(g.DepthMask, 1)
	d.c(g.Clear, glColorBufferBit|glDepthBufferBit)
	d.c(g.Enable, glDepthTest)
	// The optical frame's y points down the picture and GL's window y
	// is the picture's row: a face counter-clockwise seen from outside is
	// clockwise in window coordinates.
	d.c(g.Enable, glCullFace)
	d.c(g.CullFace, glBack)
	d.c(g.FrontFace, glCW)
	d.c(g.UseProgram, uintptr(d.prog))

	toSun := r3.Scale(-1, r3.Unit(l.SunDirection))
	sun := l.Sun
	if !finite(toSun.X) || !finite(toSun.Y) || !finite(toSun.Z) {
		toSun, sun = r3.Vec{Z: 1}, [3]float32{}
	}
	d.vec = [3]float32{float32(toSun.X), float32(toSun.Y), float32(toSun.Z)}
	d.c(g.Uniform3fv, uintptr(d.uToSun), 1, uintptr(unsafe.Pointer(&d.vec[0])))
	d.vec = sun
	d.c(g.Uniform3fv, uintptr(d.uSun), 1, uintptr(unsafe.Pointer(&d.vec[0])))
	d.vec = l.Ambient
	d.c(g.Uniform3fv, uintptr(d.uAmbient), 1, uintptr(unsafe.Pointer(&d.vec[0])))

	// Opaque bodies first, then the translucent ones blended over them
	// without writing depth (not sorted among themselves).
	d.drawAll(vp, false)
	d.c(g.Enable, glBlend)
	d.c(g.BlendFuncSeparate, glSrcAlpha, glOneMinusSrcAlpha, glZero, glOne)
	d.c(g.DepthMask, 0)
	d.drawAll(vp, true)
	d.c(g.DepthMask, 1)
	d.c(g.Disable, glBlend)
	d.c(g.BindVertexArray, 0)

	if pack == packNone {
		if d.split != nil {
			d.split.start()
			d.c(g.Finish)
			d.split.finished()
		}
		d.c(g.ReadPixels, 0, 0, uintptr(t.width), uintptr(t.height), glRGBA, glUnsignedByte, uintptr(unsafe.Pointer(unsafe.SliceData(dst))))
		if d.split != nil {
			d.split.read()
		}
		return d.glError("rendering a frame")
	}
	d.c(g.BindFramebuffer, glFramebuffer, uintptr(t.packFBO))
	d.c(g.Viewport, 0, 0, uintptr(t.width/2), uintptr(t.height))
	d.c(g.Disable, glDepthTest)
	d.c(g.Disable, glCullFace)
	d.c(g.UseProgram, uintptr(d.packProg))
	d.c(g.Uniform1i, uintptr(d.uOrder), uintptr(pack-packYUYV))
	d.c(g.ActiveTexture, glTexture0)
	d.c(g.BindTexture, glTexture2D, uintptr(t.tex))
	d.c(g.DrawArrays, glTriangles, 0, 3)
	d.c(g.BindTexture, glTexture2D, 0)
	d.c(g.ReadPixels, 0, 0, uintptr(t.width/2), uintptr(t.height), glRGBA, glUnsignedByte, uintptr(unsafe.Pointer(unsafe.SliceData(dst))))
	return d.glError("rendering a frame")
}

// drawAll draws the opaque (translucent false) or translucent bodies.
func (d *device) drawAll(vp *[4][4]float64, translucent bool) {
	g := d.g
	culling := true // as render left it
	defer func() {
		if !culling {
			d.c(g.Enable, glCullFace)
		}
	}()
	for i := range d.draws {
		b := &d.draws[i]
		if (b.color[3] < 1) != translucent || b.color[3] == 0 || b.mesh >= len(d.meshes) {
			continue
		}
		m := &d.meshes[b.mesh]
		if m.doubleSided == culling {
			culling = !m.doubleSided
			if culling {
				d.c(g.Enable, glCullFace)
			} else {
				d.c(g.Disable, glCullFace)
			}
		}
		mvp := mul(vp, &b.model)
		columnMajor(&d.mvp, &mvp)
		columnMajor(&d.model, &b.model)
		d.color = b.color
		d.c(g.UniformMatrix4fv, uintptr(d.uMVP), 1, 0, uintptr(unsafe.Pointer(&d.mvp[0])))
		d.c(g.UniformMatrix4fv, uintptr(d.uModel), 1, 0, uintptr(unsafe.Pointer(&d.model[0])))
		d.c(g.Uniform4fv, uintptr(d.uColor), 1, uintptr(unsafe.Pointer(&d.color[0])))
		d.c(g.BindVertexArray, uintptr(m.vao))
		d.c(g.DrawElements, glTriangles, uintptr(m.count), glUnsignedInt, 0)
	}
}

// c calls fn with a (integers, or pointers to memory that stays reachable
// through d or the caller) without allocating; see device.args.
func (d *device) c(fn uintptr, a ...uintptr) uintptr {
	n := copy(d.args[:], a)
	r, _, _ := purego.SyscallN(fn, d.args[:n]...)
	return r
}

// frameSplit accumulates the time of glFinish (the rasteriser finishing
// the frame) and of glReadPixels after it.
type frameSplit struct {
	t0, t1         time.Time
	finish, readNs time.Duration
	frames         int
}

func (s *frameSplit) start()    { s.t0 = time.Now() }
func (s *frameSplit) finished() { s.t1 = time.Now(); s.finish += s.t1.Sub(s.t0) }
func (s *frameSplit) read()     { s.readNs += time.Since(s.t1); s.frames++ }
