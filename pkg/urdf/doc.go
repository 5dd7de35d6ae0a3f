// Package urdf is the document model of a URDF robot description: links,
// joints, origins, axes, limits, safety controllers, mimics, inertials and
// the geometry of visuals and collisions,
// with every attribute kept as written, and the number and vector syntax
// of the format. It decides nothing about what a description means:
// pkg/kinematics builds a kinematic chain from it, and the tests of the
// repository's own descriptions (internal/testkit/urdftest) check it against the
// rules of ROS's parser (urdfdom).
package urdf
