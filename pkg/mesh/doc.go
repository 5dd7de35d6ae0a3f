// Package mesh reads triangle meshes from the two formats scenario authors
// use for collision and visual geometry: STL (binary and ASCII) and
// Wavefront OBJ (vertices and faces; polygons are fan-triangulated, negative
// indices count back from the last vertex). It knows nothing of worlds:
// pkg/sdf scales and places the meshes it reads here.
//
// Coordinates are kept as written, in the file's own unit (SDF meshes are
// in metres unless the <mesh><scale> says otherwise). Every reader checks
// its input against Limits, so a hostile or truncated file gives an error
// naming the line (OBJ, ASCII STL) or triangle (binary STL), never a panic
// and never an allocation much larger than the file itself.
//
// Box, Cylinder, Frustum and Sphere tessellate the SDF primitives (for a
// renderer that draws triangles only), wound outwards like the readers'
// closed meshes.
//
// A Mesh is a plain value once built; reading it from several goroutines is
// safe, changing it is the owner's business.
package mesh
