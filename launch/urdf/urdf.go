// Package urdf holds the repository's robot descriptions, the one copy of
// each: the *.urdf files in this folder, which CMakeLists.txt installs to
// share/telebridge/urdf/ (and share/telebridge/launch/urdf/) for
// robot_state_publisher and the launch files, and which this package
// embeds for the Go programs and tests that need a description without a
// file system (the console's demo arm). Tests that read a file use its
// path here (internal/testkit/urdftest.Path).
package urdf

import "embed"

// Files holds every description of this folder (*.urdf), by file name.
//
//go:embed *.urdf
var Files embed.FS

// UR5Like is ur5_like.urdf: a six-axis arm with the dimensions of a UR5,
// the jog services' default arm and the console's demo arm. Lengths in
// [m], angles in [rad].
//
//go:embed ur5_like.urdf
var UR5Like string

// ServosilaEngineer is servosila_engineer.urdf: the Servosila Engineer
// crawler with its flippers, four-joint arm, gripper and cameras, the
// console's 3-D view and balance model. Lengths in [m], angles in [rad],
// masses in [kg].
//
//go:embed servosila_engineer.urdf
var ServosilaEngineer string

// Furbot is furbot.urdf: the Furbot electric vehicle with its steered
// front wheels, the console's 3-D view of it. Lengths in [m], angles in
// [rad], masses in [kg].
//
//go:embed furbot.urdf
var Furbot string
