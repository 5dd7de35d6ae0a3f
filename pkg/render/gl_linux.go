//go:build linux

package render

import (
	"fmt"
	"math"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Install is the one line New's error gives when EGL or OpenGL ES cannot
// be loaded.
const Install = "install the Debian packages libegl1 libgles2 libgl1-mesa-dri (scripts/debian-packages.sh does)"

// The shared objects, by their sonames (the runtime packages install
// these; the unversioned names come only with the -dev packages).
// Variables so that a test can name a library that is not there.
var (
	libEGL    = "libEGL.so.1"
	libGLESv2 = "libGLESv2.so.2"
)

// EGL and GL enumerants used here (Khronos registry values).
const (
	eglNone                = 0x3038
	eglExtensions          = 0x3055
	eglVendor              = 0x3053
	eglRenderableType      = 0x3040
	eglSurfaceType         = 0x3033
	eglPbufferBit          = 0x0001
	eglOpenGLES3Bit        = 0x0040
	eglRedSize             = 0x3024
	eglGreenSize           = 0x3023
	eglBlueSize            = 0x3022
	eglDepthSize           = 0x3025
	eglWidth               = 0x3057
	eglHeight              = 0x3056
	eglOpenGLESAPI         = 0x30A0
	eglContextMajor        = 0x3098
	eglContextMinor        = 0x30FB
	eglPlatformSurfaceless = 0x31DD // EGL_PLATFORM_SURFACELESS_MESA
	eglPlatformDevice      = 0x313F // EGL_PLATFORM_DEVICE_EXT

	glVendor              = 0x1F00
	glRenderer            = 0x1F01
	glVersion             = 0x1F02
	glFramebuffer         = 0x8D40
	glRenderbuffer        = 0x8D41
	glRGBA8               = 0x8058
	glDepthComponent24    = 0x81A6
	glColorAttachment0    = 0x8CE0
	glDepthAttachment     = 0x8D00
	glFramebufferComplete = 0x8CD5
	glArrayBuffer         = 0x8892
	glElementArrayBuffer  = 0x8893
	glStaticDraw          = 0x88E4
	glFloat               = 0x1406
	glUnsignedInt         = 0x1405
	glUnsignedByte        = 0x1401
	glTriangles           = 0x0004
	glVertexShader        = 0x8B31
	glFragmentShader      = 0x8B30
	glCompileStatus       = 0x8B81
	glLinkStatus          = 0x8B82
	glInfoLogLength       = 0x8B84
	glDepthTest           = 0x0B71
	glCullFace            = 0x0B44
	glBlend               = 0x0BE2
	glCW                  = 0x0900
	glBack                = 0x0405
	glSrcAlpha            = 0x0302
	glOneMinusSrcAlpha    = 0x0303
	glZero                = 0
	glOne                 = 1
	glColorBufferBit      = 0x4000
	glDepthBufferBit      = 0x0100
	glRGBA                = 0x1908
	glPackAlignment       = 0x0D05
	glNoError             = 0
	glTexture2D           = 0x0DE1
	glTexture0            = 0x84C0
	glTextureMinFilter    = 0x2801
	glTextureMagFilter    = 0x2800
	glNearest             = 0x2600
)

// gles holds the entry points, loaded once per Renderer. Every call goes
// through purego.SyscallN, which allocates nothing (reflection-based
// wrappers would allocate per call). Functions taking floats by value take
// only floats, so SyscallN's copy of the arguments into the float
// registers is what they read.
type gles struct {
	egl, gl uintptr // dlopen handles

	eglGetProcAddress, eglQueryString, eglGetPlatformDisplayEXT, eglQueryDevicesEXT    uintptr
	eglGetDisplay, eglInitialize, eglTerminate, eglBindAPI, eglChooseConfig            uintptr
	eglCreateContext, eglDestroyContext, eglMakeCurrent, eglGetError, eglReleaseThread uintptr
	eglCreatePbufferSurface, eglDestroySurface                                         uintptr

	GetString, GetError, Enable, Disable, FrontFace, CullFace, BlendFuncSeparate, DepthMask uintptr
	PixelStorei, Viewport, ClearColor, Clear, Finish, ReadPixels                            uintptr
	GenFramebuffers, BindFramebuffer, FramebufferRenderbuffer, CheckFramebufferStatus       uintptr
	DeleteFramebuffers, GenRenderbuffers, BindRenderbuffer, RenderbufferStorage             uintptr
	DeleteRenderbuffers, GenBuffers, BindBuffer, BufferData, DeleteBuffers                  uintptr
	GenVertexArrays, BindVertexArray, DeleteVertexArrays, VertexAttribPointer               uintptr
	EnableVertexAttribArray, DrawElements, CreateShader, ShaderSource, CompileShader        uintptr
	GetShaderiv, GetShaderInfoLog, DeleteShader, CreateProgram, AttachShader, LinkProgram   uintptr
	GetProgramiv, GetProgramInfoLog, UseProgram, DeleteProgram, GetUniformLocation          uintptr
	GenTextures, BindTexture, TexStorage2D, TexParameteri, FramebufferTexture2D             uintptr
	DeleteTextures, ActiveTexture, DrawArrays                                               uintptr
	UniformMatrix4fv, Uniform4fv, Uniform3fv, Uniform1i                                     uintptr
}

// load opens libEGL and libGLESv2 and resolves every entry point, or says
// which is missing and what to install.
func load() (*gles, error) {
	g := &gles{}
	var err error
	if g.egl, err = purego.Dlopen(libEGL, purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
		return nil, fmt.Errorf("%w: cannot load %s (%v): %s", ErrUnavailable, libEGL, err, Install)
	}
	if g.gl, err = purego.Dlopen(libGLESv2, purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
		return nil, fmt.Errorf("%w: cannot load %s (%v): %s", ErrUnavailable, libGLESv2, err, Install)
	}
	if g.eglGetProcAddress, err = purego.Dlsym(g.egl, "eglGetProcAddress"); err != nil {
		return nil, fmt.Errorf("%w: %s has no eglGetProcAddress: %s", ErrUnavailable, libEGL, Install)
	}
	for _, e := range g.entries() {
		lib, libName := g.gl, libGLESv2
		if strings.HasPrefix(e.name, "egl") {
			lib, libName = g.egl, libEGL
		}
		p, err := purego.Dlsym(lib, e.name)
		if err != nil { // some libraries export an entry point only this way
			p = g.proc(e.name)
		}
		if p == 0 {
			return nil, fmt.Errorf("%w: %s has no %s: %s", ErrUnavailable, libName, e.name, Install)
		}
		*e.fn = p
	}
	g.eglGetPlatformDisplayEXT = g.proc("eglGetPlatformDisplayEXT")
	g.eglQueryDevicesEXT = g.proc("eglQueryDevicesEXT")
	return g, nil
}

// entries lists the required entry points by their C names.
func (g *gles) entries() []struct {
	name string
	fn   *uintptr
} {
	return []struct {
		name string
		fn   *uintptr
	}{
		{"eglQueryString", &g.eglQueryString}, {"eglGetDisplay", &g.eglGetDisplay},
		{"eglInitialize", &g.eglInitialize}, {"eglTerminate", &g.eglTerminate},
		{"eglBindAPI", &g.eglBindAPI}, {"eglChooseConfig", &g.eglChooseConfig},
		{"eglCreateContext", &g.eglCreateContext}, {"eglDestroyContext", &g.eglDestroyContext},
		{"eglMakeCurrent", &g.eglMakeCurrent}, {"eglGetError", &g.eglGetError},
		{"eglReleaseThread", &g.eglReleaseThread}, {"eglCreatePbufferSurface", &g.eglCreatePbufferSurface},
		{"eglDestroySurface", &g.eglDestroySurface},
		{"glGetString", &g.GetString}, {"glGetError", &g.GetError}, {"glEnable", &g.Enable},
		{"glDisable", &g.Disable}, {"glFrontFace", &g.FrontFace}, {"glCullFace", &g.CullFace},
		{"glBlendFuncSeparate", &g.BlendFuncSeparate}, {"glDepthMask", &g.DepthMask},
		{"glPixelStorei", &g.PixelStorei}, {"glViewport", &g.Viewport}, {"glClearColor", &g.ClearColor},
		{"glClear", &g.Clear}, {"glFinish", &g.Finish}, {"glReadPixels", &g.ReadPixels},
		{"glGenFramebuffers", &g.GenFramebuffers}, {"glBindFramebuffer", &g.BindFramebuffer},
		{"glFramebufferRenderbuffer", &g.FramebufferRenderbuffer},
		{"glCheckFramebufferStatus", &g.CheckFramebufferStatus}, {"glDeleteFramebuffers", &g.DeleteFramebuffers},
		{"glGenRenderbuffers", &g.GenRenderbuffers}, {"glBindRenderbuffer", &g.BindRenderbuffer},
		{"glRenderbufferStorage", &g.RenderbufferStorage}, {"glDeleteRenderbuffers", &g.DeleteRenderbuffers},
		{"glGenBuffers", &g.GenBuffers}, {"glBindBuffer", &g.BindBuffer}, {"glBufferData", &g.BufferData},
		{"glDeleteBuffers", &g.DeleteBuffers}, {"glGenVertexArrays", &g.GenVertexArrays},
		{"glBindVertexArray", &g.BindVertexArray}, {"glDeleteVertexArrays", &g.DeleteVertexArrays},
		{"glVertexAttribPointer", &g.VertexAttribPointer}, {"glEnableVertexAttribArray", &g.EnableVertexAttribArray},
		{"glDrawElements", &g.DrawElements}, {"glCreateShader", &g.CreateShader},
		{"glShaderSource", &g.ShaderSource}, {"glCompileShader", &g.CompileShader},
		{"glGetShaderiv", &g.GetShaderiv}, {"glGetShaderInfoLog", &g.GetShaderInfoLog},
		{"glDeleteShader", &g.DeleteShader}, {"glCreateProgram", &g.CreateProgram},
		{"glAttachShader", &g.AttachShader}, {"glLinkProgram", &g.LinkProgram},
		{"glGetProgramiv", &g.GetProgramiv}, {"glGetProgramInfoLog", &g.GetProgramInfoLog},
		{"glUseProgram", &g.UseProgram}, {"glDeleteProgram", &g.DeleteProgram},
		{"glGetUniformLocation", &g.GetUniformLocation}, {"glUniformMatrix4fv", &g.UniformMatrix4fv},
		{"glUniform4fv", &g.Uniform4fv}, {"glUniform3fv", &g.Uniform3fv}, {"glUniform1i", &g.Uniform1i},
		{"glGenTextures", &g.GenTextures}, {"glBindTexture", &g.BindTexture}, {"glTexStorage2D", &g.TexStorage2D},
		{"glTexParameteri", &g.TexParameteri}, {"glFramebufferTexture2D", &g.FramebufferTexture2D},
		{"glDeleteTextures", &g.DeleteTextures}, {"glActiveTexture", &g.ActiveTexture}, {"glDrawArrays", &g.DrawArrays},
	}
}

// proc returns eglGetProcAddress(name), 0 if unknown.
func (g *gles) proc(name string) uintptr {
	b := cstr(name)
	r, _, _ := purego.SyscallN(g.eglGetProcAddress, uintptr(unsafe.Pointer(&b[0])))
	return r
}

// cstr returns s NUL-terminated.
func cstr(s string) []byte { return append([]byte(s), 0) }

// gostr copies the NUL-terminated C string at p (C memory).
func gostr(p uintptr) string {
	if p == 0 {
		return ""
	}
	c := *(**[1 << 20]byte)(unsafe.Pointer(&p)) // p is C memory: no Go pointer rules apply
	n := 0
	for n < len(c) && c[n] != 0 {
		n++
	}
	return string(c[:n])
}

// f32 passes a float to a function whose parameters are all floats.
func f32(v float32) uintptr { return uintptr(math.Float32bits(v)) }
