package direct

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/telebridge/telebridge/pkg/camera"
	"github.com/telebridge/telebridge/pkg/camera/wire"
	"github.com/telebridge/telebridge/pkg/render"
	"github.com/telebridge/telebridge/pkg/trainworld"
)

// WorldPrefix starts a camera device rendered from the training world:
// "world:NAME", NAME one of WorldCameras' keys.
const WorldPrefix = "world:"

// WorldCameras maps the rendered cameras' names to the URDF links they
// look from (launch/urdf/servosila_engineer.urdf): the wide-angle stereo
// pair and the zoom camera in the head's face, the rear camera at its
// back.
var WorldCameras = map[string]string{
	"front":       "front_left_camera_link",
	"front_right": "front_right_camera_link",
	"zoom":        "zoom_camera_link",
	"rear":        "rear_camera_link",
}

// worldCameraOrder is the default camera list with a world.
var worldCameraOrder = []string{"world:front", "world:rear", "world:zoom", "world:front_right"}

// Horizontal fields of view of the rendered cameras [rad]: the project has
// no camera_info calibration of the Servosila's cameras (params/
// camera_publisher.yaml leaves camera_info_url empty), so these are
// assumptions: 90 degrees for the wide-angle cameras, 50 for the zoom
// camera at its widest. Pictures are ideal pinholes (no distortion).
const (
	WideFOV = 90 * 3.141592653589793 / 180
	ZoomFOV = 50 * 3.141592653589793 / 180
)

// What the world starts with; tests replace them to simulate a missing
// library.
var (
	newWorld    = trainworld.New
	newRenderer = render.New
)

// startWorld loads Config.World and starts its loop. A world that cannot
// run (ODE missing, a bad file) logs one line and leaves b.world nil: the
// kinematic simulator and pattern cameras then run. EGL missing keeps the
// world (physics) and falls back to pattern cameras.
func (b *Backend) startWorld(simCtx context.Context) {
	w, err := newWorld(trainworld.Config{World: b.cfg.World})
	if err != nil {
		// ode.ErrMissing says what to install.
		b.worldNote = fmt.Sprintf("world %q not started (%v): running the kinematic simulator and pattern cameras", b.cfg.World, err)
		b.cfg.Logf("%s", b.worldNote)
		return
	}
	b.world = w
	b.goRun("world", &b.simWG, func() error { return w.Run(simCtx) })
	b.goRun("world real-time watch", &b.simWG, func() error { return b.watchRealTime(simCtx, w) })
	rendered := b.cfg.Cameras == nil
	for _, c := range b.cfg.Cameras {
		rendered = rendered || strings.HasPrefix(c, WorldPrefix)
	}
	if !rendered {
		b.worldNote = fmt.Sprintf("world %q: physics running, no rendered camera configured", b.cfg.World)
		return
	}
	r, err := newRenderer()
	if err == nil {
		if err = w.AttachRenderer(r); err != nil {
			_ = r.Close()
		}
	}
	if err != nil {
		why := err.Error()
		if errors.Is(err, render.ErrUnavailable) {
			why = "no EGL/OpenGL ES: " + render.Install
		}
		b.worldNote = fmt.Sprintf("world %q: physics running; cameras not rendered (%s): pattern cameras", b.cfg.World, why)
		b.cfg.Logf("%s", b.worldNote)
		return
	}
	b.renderer = r
	if b.cfg.Cameras == nil {
		b.cfg.Cameras = append([]string(nil), worldCameraOrder...)
	}
	b.worldNote = fmt.Sprintf("world %q: physics running, cameras rendered (%s)", b.cfg.World, r.Info())
}

// WorldStatus says what the training world runs ("" without
// Config.World): physics and rendered cameras, or what fell back and why.
func (b *Backend) WorldStatus() string { return b.worldNote }

// World returns the running training world (nil without one), for its
// ground truth.
func (b *Backend) World() *trainworld.World { return b.world }

// worldDraw returns the camera.DrawFunc of rendered camera dev
// ("world:NAME").
func (b *Backend) worldDraw(dev string) (camera.DrawFunc, error) {
	name := strings.TrimPrefix(dev, WorldPrefix)
	link, ok := WorldCameras[name]
	if !ok {
		return nil, fmt.Errorf("camera %s: no such world camera (have front, front_right, zoom, rear)", dev)
	}
	if b.renderer == nil {
		return nil, fmt.Errorf("camera %s: %s", dev, b.worldNote)
	}
	fov := WideFOV
	if name == "zoom" {
		fov = ZoomFOV
	}
	c, err := b.world.NewCamera(link, render.FromFOV(b.cfg.CameraWidth, b.cfg.CameraHeight, fov))
	if err != nil {
		return nil, fmt.Errorf("camera %s: %w", dev, err)
	}
	b.worldCams = append(b.worldCams, c)
	return func(buf []byte, f wire.Format, step, height uint32) error {
		if int(step) != c.Intrinsics().Width*int(f.BytesPerPixel) {
			return fmt.Errorf("rendered camera: row step %d for %d px wide", step, c.Intrinsics().Width)
		}
		return c.Render(buf, f.FourCC)
	}, nil
}

// closeWorld frees the world after its loop and the simulators stopped.
func (b *Backend) closeWorld() error {
	var errs []error
	for _, c := range b.worldCams {
		errs = append(errs, c.Close())
	}
	if b.renderer != nil {
		errs = append(errs, b.renderer.Close())
	}
	if b.world != nil {
		errs = append(errs, b.world.Close())
	}
	b.worldCams, b.renderer = nil, nil // Close may be called again
	return errors.Join(errs...)
}

// realTimeWatch is how often the backend checks that the world keeps
// real time; SlowRealTime the real-time factor below which it says so.
var realTimeWatch = 10 * time.Second

// SlowRealTime is the real-time factor below which the console logs that
// the world runs in slow motion (and logs again when it recovers).
const SlowRealTime = 0.9

// watchRealTime logs one line when the world falls below SlowRealTime
// (the machine too slow or too loaded: the robot and the cameras then
// move in slow motion, see trainworld.Stats) and one when it is back.
func (b *Backend) watchRealTime(ctx context.Context, w *trainworld.World) error {
	t := time.NewTicker(realTimeWatch)
	defer t.Stop()
	slow := false
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		s := w.Stats()
		if s.Wall < 1 {
			continue // no full second measured yet
		}
		switch {
		case !slow && s.RTF < SlowRealTime:
			slow = true
			b.cfg.Logf("world %q runs slower than real time (real-time factor %.2f, %.1f s dropped so far): the machine is too slow or too loaded, the robot and cameras move in slow motion", b.cfg.World, s.RTF, s.Dropped)
		case slow && s.RTF >= SlowRealTime:
			slow = false
			b.cfg.Logf("world %q back to real time (real-time factor %.2f)", b.cfg.World, s.RTF)
		}
	}
}

// defaultLogf is Config.Logf's default.
var defaultLogf = log.Printf
