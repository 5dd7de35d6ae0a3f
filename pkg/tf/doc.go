// Package tf is a transform buffer in pure Go: the tree of coordinate
// frames of a robot (base, links, tool, cameras, user frames), with static
// transforms and time-stamped dynamic ones, and lookups between any two
// frames of one tree at a given time.
//
// Each frame has at most one parent. Set and SetStatic record the pose of a
// child frame in its parent (geom.Transform T_parent_child). Lookup(target,
// source, at) returns T_target_source: it maps coordinates in source into
// target, and is the pose of source seen from target (the tf2 convention of
// lookupTransform(target, source)). Between two samples of a dynamic
// transform the translation is interpolated linearly and the rotation by
// slerp; outside the stored samples Lookup fails with ErrExtrapolation
// rather than guess. The zero time means "the latest time at which every
// transform on the path is known".
//
// History is bounded per frame, by age (Config.CacheTime) and by count
// (Config.MaxHistory). The ROS 2 layer feeds the buffer from /tf and
// /tf_static; the core and the tests feed it directly.
//
// A Buffer is safe for concurrent use by any number of goroutines.
package tf
