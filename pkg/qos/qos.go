// Package qos names the ROS 2 quality-of-service profiles that telebridge
// nodes use, as plain data, so that the choice of a profile for each topic is
// made (and tested) in the core and the ROS 2 layer only translates it.
//
// The presets match rclcpp's and rmw's of ROS 2 Humble: Default
// (rmw_qos_profile_default), SensorData (rmw_qos_profile_sensor_data),
// ParameterEvents and Services, and StaticTF for /tf_static (what tf2's
// static broadcaster uses).
package qos

import (
	"fmt"
	"strings"
)

// Reliability says whether lost samples are resent.
type Reliability uint8

// Reliability values.
const (
	Reliable          Reliability = iota // resend until delivered (cmd_vel, odom)
	BestEffort                           // drop rather than delay (camera frames, fast telemetry)
	SystemReliability                    // the middleware's default
)

// Durability says whether late subscribers get samples published before
// they joined.
type Durability uint8

// Durability values.
const (
	Volatile       Durability = iota // only samples published after joining
	TransientLocal                   // the publisher keeps the last Depth samples for late joiners
	SystemDurability
)

// History says which samples are kept.
type History uint8

// History values.
const (
	KeepLast History = iota // keep the last Depth samples
	KeepAll                 // keep every sample (bounded by resource limits)
	SystemHistory
)

// Profile is a quality-of-service profile.
type Profile struct {
	Reliability Reliability // reliable or best effort
	Durability  Durability  // volatile or transient local
	History     History     // keep last (Depth) or keep all
	Depth       int         // samples kept with KeepLast; ignored otherwise
}

// Presets.
var (
	// Default is for commands and state that must not be lost: cmd_vel,
	// odom, joint targets, tf.
	Default = Profile{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 10}
	// SensorData is for high-rate streams where the newest sample matters
	// more than every sample: images, 100 Hz telemetry.
	SensorData = Profile{Reliability: BestEffort, Durability: Volatile, History: KeepLast, Depth: 5}
	// StaticTF is for /tf_static: latched for late joiners.
	StaticTF = Profile{Reliability: Reliable, Durability: TransientLocal, History: KeepLast, Depth: 100}
	// ParameterEvents is for /parameter_events.
	ParameterEvents = Profile{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 1000}
	// Services is for service requests and replies.
	Services = Profile{Reliability: Reliable, Durability: Volatile, History: KeepLast, Depth: 10}
)

// Named returns a preset by its parameter name ("default", "sensor_data",
// "static_tf", "parameter_events", "services"), so that nodes can let
// users choose a profile per topic.
func Named(name string) (Profile, error) {
	switch strings.ToLower(name) {
	case "default", "reliable":
		return Default, nil
	case "sensor_data", "best_effort":
		return SensorData, nil
	case "static_tf":
		return StaticTF, nil
	case "parameter_events":
		return ParameterEvents, nil
	case "services":
		return Services, nil
	}
	return Profile{}, fmt.Errorf("qos: unknown profile %q (want default, sensor_data, static_tf, parameter_events or services)", name)
}

// Validate reports a profile that the middleware would reject.
func (p Profile) Validate() error {
	if p.History == KeepLast && p.Depth < 1 {
		return fmt.Errorf("qos: keep-last history needs a depth of at least 1, got %d", p.Depth)
	}
	if p.Reliability > SystemReliability || p.Durability > SystemDurability || p.History > SystemHistory {
		return fmt.Errorf("qos: invalid profile %+v", p)
	}
	return nil
}

// Compatible reports whether a subscription with profile sub receives
// from a publisher with profile pub, by the DDS request/offered rules for
// reliability and durability (a reliable subscription does not match a
// best-effort publisher; a transient-local one does not match a volatile
// publisher).
func Compatible(pub, sub Profile) bool {
	if sub.Reliability == Reliable && pub.Reliability == BestEffort {
		return false
	}
	if sub.Durability == TransientLocal && pub.Durability == Volatile {
		return false
	}
	return true
}
