// Package direct is the in-process console.Backend behind `telebridge
// console`: it drives the Servosila driver (pkg/servosila), the Furbot
// bridge (pkg/furbot), a jog controller with a simulated arm (pkg/jog,
// pkg/armsim) and cameras (pkg/camera), and starts the embedded simulators
// (pkg/servosila/sim, pkg/furbotsim) where no real machine is given.
//
// Start brings everything up; Close stops the drivers first (each sends
// its own stop: zero packets, full-brake frames, a hold), then the cameras
// and the simulators. The simulators' truth (ServosilaSim, FurbotSim,
// Arm) is exposed for tests, which judge the console by it.
//
// Cameras stream as MJPEG over HTTP through pkg/mjpeg: a camera streams
// from its device only while at least one page watches it
// (camera.Camera.SetSubscribers from mjpeg.Stream.OnViewers), frames are
// encoded to JPEG only then, at most Config.Stream.Rate a second, and
// native MJPG passes through untouched.
package direct
