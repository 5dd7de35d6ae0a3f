// Package sdf reads Gazebo worlds in SDFormat (the SDF 1.6-1.9 that
// scenario authors write) into one flat description the physics and the
// renderer consume: bodies with their poses in the world frame, their
// collision and visual shapes with poses in the body's frame, masses and
// inertias, colours, lights and joints.
//
// Units are SDF's: lengths [m], angles [rad] (a <pose degrees="true"> is
// converted), masses [kg], inertias [kg m^2], colours in [0, 1]. The world
// frame is SDF's: Z up. Poses are geom.Transform values: T.Mul(p) maps a
// point from the child frame into the parent frame.
//
// What is read, what is warned and what fails:
//
//   - <world>: <gravity>, <scene> colours, <light>, <model>, <include>,
//     <frame>. <physics> is read for SDF 1.5's gravity only and warned
//     (the simulator steps at its own 1 kHz).
//   - <model>: <static>, <pose> (relative_to), <link>, nested <model>,
//     <include>, <joint>, <frame>.
//   - <link>: <pose>, <inertial> (mass, pose, inertia), <collision>,
//     <visual>, <light>, <gravity>. A <sensor> is warned.
//   - geometry: box, cylinder, sphere, plane, mesh (STL, OBJ; uri, scale).
//     Other geometry in a collision is an error; in a visual a warning and
//     the visual is left out. So is a visual whose mesh does not load; a
//     collision whose mesh does not load is an error.
//   - <material>: ambient, diffuse, specular, emissive, transparency, and
//     the common Gazebo/Colour scripts.
//   - <surface>: friction/ode mu, mu2, bounce restitution; contact
//     stiffness, friction directions and torsional friction are warned.
//   - <joint>: every SDF type, parent, child, pose, the first axis (xyz
//     with expressed_in or use_parent_model_frame), limits, damping,
//     friction.
//   - <include>: model://name searched in Options.ModelPath (model.config
//     names the SDF file; model.sdf without it), file:// and relative
//     paths; the include's name, pose and static override the model's.
//
// Every other element raises a Warning naming the file, line and element.
// Malformed input (bad XML, wrong number counts, a negative mass or size,
// a name that resolves to nothing, a frame cycle) is an *Error naming the
// file, line and element; it wraps ErrMalformed. The reader bounds what it
// reads (file sizes, nesting, include depth, mesh sizes) and never panics.
//
// Load, LoadFile and Parse are safe for concurrent use; the World they
// return is the caller's.
package sdf
