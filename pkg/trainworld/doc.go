// Package trainworld is the training world: an SDF world (pkg/sdf,
// pkg/worlds) loaded into the physics engine (pkg/physics, ODE) with the
// Servosila Engineer in it (pkg/physics/crawler), stepped at a fixed 1 kHz
// either in real time (Run) or in lock-step by the caller (Step), with the
// bodies' poses mirrored into a ray-casting scene (pkg/raycast, for the
// laser) and, when a renderer is attached, into a rendered scene whose
// cameras sit at the URDF's camera frames (pkg/render).
//
// The robot's vendor simulator (pkg/servosila/sim) drives the crawler
// through Plant, which implements sim.Plant: the protocol is unchanged and
// the telemetry comes from the physics.
//
// Frames: the world frame is the SDF's (z up, metres, radians); poses are
// geom.Transform values T_world_x.
package trainworld
