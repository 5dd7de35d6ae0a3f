// Package launchtest evaluates the repository's launch files (launch/*.py)
// without ROS 2, in its tests: testdata/harness.py stands in for the parts
// of launch, launch_ros and ament_index_python the files use, walks each
// launch description as ros2 launch would (arguments, conditions,
// OpaqueFunctions, includes, substitutions) and reports the nodes,
// processes and messages it would start. The tests check those against the
// robot descriptions and the nodes' parameters. It is no substitute for
// running the files under ROS 2: a stand-in accepts what the real class
// would only as far as the launch files use it.
package launchtest
