// Package raycast casts rays against the collision geometry of an
// sdf.World: boxes, cylinders, spheres, planes and triangle meshes. It is
// what the simulated laser scanner (pkg/laser) and the top-down map of the
// docs see.
//
// A Scene holds the static bodies in one bounding-volume hierarchy in the
// world frame, and each dynamic body in its own hierarchy in its link frame
// with a pose the physics updates (SetPose). Cast finds the nearest hit
// along a ray; it allocates nothing.
//
// Solids are solid: a ray that starts inside a box, cylinder or sphere hits
// its inside surface where it leaves; triangles are hit from either side; a
// plane is the half-space below its normal and is hit from above only.
// Distances are [m] along a unit direction, points and normals in the world
// frame.
//
// Cast may be called from many goroutines at once; SetPose must not run
// concurrently with Cast (the owner of the physics step calls SetPose
// between scans).
package raycast
