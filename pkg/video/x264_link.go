//go:build !nox264

package video

// A static link (scripts/check.d/camera.sh links telebridge statically)
// needs the maths and dl libraries after libx264; the binding's
// pkg-config line names only -lx264, enough for a dynamic link.

// #cgo LDFLAGS: -lx264 -lm -ldl
import "C"
