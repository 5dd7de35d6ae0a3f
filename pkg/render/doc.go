// Package render draws the training world's cameras: a scene of coloured,
// lit triangle meshes with depth, seen from a pinhole camera, read back
// into a caller's buffer in the pixel formats the real cameras deliver.
//
// # How it draws
//
// OpenGL ES 3.0 on a headless EGL context (no window, no X server):
// Mesa's software rasteriser llvmpipe on a machine without a GPU, the GPU's
// driver where there is one (same code). libEGL and libGLESv2 are loaded
// at run time with github.com/ebitengine/purego, so the package builds
// with Go alone; when they are missing, New returns an error wrapping
// ErrUnavailable that names the Debian packages to install (callers fall
// back to the pattern cameras).
//
// A GL context belongs to one OS thread. A Renderer therefore owns one
// goroutine locked to its thread, which holds the context and every GL
// object; the methods of Renderer and Camera send their work to it and
// wait for the answer, so they may be called from any goroutine.
//
// # Scene
//
// Geometry is uploaded once (UploadMesh: vertex and index buffers on the
// GPU) and placed in the world as bodies (AddBody: a mesh, a colour and a
// pose). Static scenery is a body whose pose never changes; a dynamic body
// is moved with SetPose before each frame (cheap: it stores a matrix under
// a mutex, no GL call). One directional light (the sun) plus ambient light
// shade the bodies (Lambert, per vertex).
//
// # Frames
//
// The world frame is the scene's: z up (REP 103). Poses are
// geom.Transform values T_world_x: the pose of frame x in the world.
//
// A Camera's pose is the pose of its optical frame in the world, with the
// optical frame of REP 103: z forward along the optical axis, x right, y
// down in the picture. A camera link in the body convention (x forward,
// y left, z up, as URDF camera links usually are) becomes an optical frame
// through OpticalFromLink.
//
// Pixels follow the pinhole model of ROS camera_info / OpenCV: a point
// (x, y, z) in the optical frame, z > 0, lands at
//
//	u = fx*x/z + s*y/z + cx,  v = fy*y/z + cy
//
// where (u, v) = (0, 0) is the centre of the top-left pixel. The
// projection is built from these intrinsics exactly (Intrinsics.Projection);
// pictures are delivered top row first.
//
// # Not rendering
//
// Nothing renders unless Camera.Render is called: a camera nobody watches
// costs nothing but the memory of its framebuffer, and an idle Renderer's
// goroutine sleeps on a channel.
package render
