// Package odometry integrates planar body velocities into a pose in the
// odom frame, for any vehicle that moves on the ground: the Servosila
// crawler (dead reckoning from the commanded twist) and the Furbot
// (rear wheel speeds, or steering angle and speed).
//
// Frames follow REP 103 and REP 105: odom is fixed to the world, x forward,
// y left, z up; base_link moves with the vehicle. Units are SI: metres,
// radians, seconds. Yaw is counter-clockwise about z, kept in (-pi, pi].
//
// Integrate is exact for a constant twist over the interval (the vehicle
// moves on an arc), so the result does not depend on the update rate. The
// Odometry type keeps the running state and produces a State shaped like
// nav_msgs/Odometry, with covariance matrices taken from its Config. It
// knows nothing of ROS: the ROS layer copies a State into a message and a
// tf odom -> base_link.
package odometry
