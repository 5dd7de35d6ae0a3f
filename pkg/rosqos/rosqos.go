package rosqos

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/telebridge/telebridge/pkg/qos"
	"github.com/telebridge/telebridge/pkg/rosparam"
)

// ErrOverride is wrapped by every error about a qos_overrides parameter.
var ErrOverride = errors.New("invalid QoS override")

// Prefix starts the name of every QoS override parameter.
const Prefix = "qos_overrides"

// Policies that a publisher's parameters override, in declaration order.
const (
	PolicyReliability = "reliability"
	PolicyDurability  = "durability"
	PolicyHistory     = "history"
	PolicyDepth       = "depth"
)

// Policies lists the overridable policies in declaration order.
var Policies = []string{PolicyReliability, PolicyDurability, PolicyHistory, PolicyDepth}

// SensorProfile is the default of every sensor publisher: ROS 2's system
// default (rmw_qos_profile_default: reliable, volatile, keep last 10), as
// REP-2003 asks of sensor drivers, so that reliable subscribers (Humble's
// image_pipeline, RViz's defaults) and best-effort ones both receive.
var SensorProfile = qos.Default

// Publisher is one publisher whose QoS the node's parameters may
// override.
type Publisher struct {
	// Topic is the name the node creates the publisher with: relative to
	// the node's namespace, private ("~/x") or absolute.
	Topic string
	// Default is the profile without overrides.
	Default qos.Profile
}

// Sensor returns a sensor publisher on topic with SensorProfile.
func Sensor(topic string) Publisher { return Publisher{Topic: topic, Default: SensorProfile} }

// ParamName returns the name of the parameter that overrides policy of the
// publisher on resolved, a fully qualified topic name:
// "qos_overrides./f1/odom.publisher.depth".
func ParamName(resolved, policy string) string {
	return Prefix + "." + resolved + ".publisher." + policy
}

// Params returns the four read-only parameters of the publisher on
// resolved (a fully qualified topic name), with def's policies as their
// defaults. Each refuses a value it cannot parse with a reason that names
// the accepted values.
func Params(resolved string, def qos.Profile) rosparam.Table {
	desc := func(what string) string {
		return fmt.Sprintf("%s of the publisher on %s (read at start-up)", what, resolved)
	}
	return rosparam.Table{
		{
			Name: ParamName(resolved, PolicyReliability), Type: rosparam.ParameterString,
			Default: rosparam.String(FormatReliability(def.Reliability)), ReadOnly: true,
			Description: desc("QoS reliability"), Constraints: "reliable, best_effort or system_default",
			Validate: func(v rosparam.ParameterValue) error { _, err := ParseReliability(v.StringValue); return err },
		},
		{
			Name: ParamName(resolved, PolicyDurability), Type: rosparam.ParameterString,
			Default: rosparam.String(FormatDurability(def.Durability)), ReadOnly: true,
			Description: desc("QoS durability"), Constraints: "volatile, transient_local or system_default",
			Validate: func(v rosparam.ParameterValue) error { _, err := ParseDurability(v.StringValue); return err },
		},
		{
			Name: ParamName(resolved, PolicyHistory), Type: rosparam.ParameterString,
			Default: rosparam.String(FormatHistory(def.History)), ReadOnly: true,
			Description: desc("QoS history"), Constraints: "keep_last, keep_all or system_default",
			Validate: func(v rosparam.ParameterValue) error { _, err := ParseHistory(v.StringValue); return err },
		},
		{
			Name: ParamName(resolved, PolicyDepth), Type: rosparam.ParameterInteger,
			Default: rosparam.Integer(int64(def.Depth)), ReadOnly: true,
			Description: desc("QoS history depth (samples kept with keep_last)"), Constraints: "at least 1 with keep_last",
			Validate: func(v rosparam.ParameterValue) error { _, err := parseDepth(v.IntegerValue); return err },
		},
	}
}

// Profile returns the profile of the publisher on resolved: def with the
// policies that get returns (typically rosparam.Store.Get after the
// parameters of Params were declared with their overrides). A policy get
// does not know keeps def's value. The result is checked as a whole
// (keep_last needs a depth of at least 1).
func Profile(resolved string, def qos.Profile, get func(name string) (rosparam.ParameterValue, bool)) (qos.Profile, error) {
	p := def
	var errs []error
	str := func(policy string) (string, bool) {
		v, ok := get(ParamName(resolved, policy))
		if !ok {
			return "", false
		}
		if v.Type != rosparam.ParameterString {
			errs = append(errs, fmt.Errorf("%s: want a string, got %s", ParamName(resolved, policy), rosparam.TypeName(v.Type)))
			return "", false
		}
		return v.StringValue, true
	}
	var err error
	if s, ok := str(PolicyReliability); ok {
		if p.Reliability, err = ParseReliability(s); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ParamName(resolved, PolicyReliability), err))
		}
	}
	if s, ok := str(PolicyDurability); ok {
		if p.Durability, err = ParseDurability(s); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ParamName(resolved, PolicyDurability), err))
		}
	}
	if s, ok := str(PolicyHistory); ok {
		if p.History, err = ParseHistory(s); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ParamName(resolved, PolicyHistory), err))
		}
	}
	if v, ok := get(ParamName(resolved, PolicyDepth)); ok {
		if v.Type != rosparam.ParameterInteger {
			errs = append(errs, fmt.Errorf("%s: want an integer, got %s", ParamName(resolved, PolicyDepth), rosparam.TypeName(v.Type)))
		} else if p.Depth, err = parseDepth(v.IntegerValue); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ParamName(resolved, PolicyDepth), err))
		}
	}
	if len(errs) == 0 && p.History == qos.KeepLast && p.Depth < 1 {
		errs = append(errs, fmt.Errorf("%s: keep_last history needs a depth of at least 1, got %d", ParamName(resolved, PolicyDepth), p.Depth))
	}
	if len(errs) > 0 {
		return def, fmt.Errorf("rosqos: %w: %w", ErrOverride, errors.Join(errs...))
	}
	return p, nil
}

// ParseReliability parses "reliable", "best_effort" or "system_default"
// (rmw's names; case-insensitive, as rclcpp compares them).
func ParseReliability(s string) (qos.Reliability, error) {
	switch strings.ToLower(s) {
	case "reliable":
		return qos.Reliable, nil
	case "best_effort":
		return qos.BestEffort, nil
	case "system_default":
		return qos.SystemReliability, nil
	}
	return 0, fmt.Errorf("unknown reliability %q (want reliable, best_effort or system_default)", s)
}

// ParseDurability parses "volatile", "transient_local" or
// "system_default".
func ParseDurability(s string) (qos.Durability, error) {
	switch strings.ToLower(s) {
	case "volatile":
		return qos.Volatile, nil
	case "transient_local":
		return qos.TransientLocal, nil
	case "system_default":
		return qos.SystemDurability, nil
	}
	return 0, fmt.Errorf("unknown durability %q (want volatile, transient_local or system_default)", s)
}

// ParseHistory parses "keep_last", "keep_all" or "system_default".
func ParseHistory(s string) (qos.History, error) {
	switch strings.ToLower(s) {
	case "keep_last":
		return qos.KeepLast, nil
	case "keep_all":
		return qos.KeepAll, nil
	case "system_default":
		return qos.SystemHistory, nil
	}
	return 0, fmt.Errorf("unknown history %q (want keep_last, keep_all or system_default)", s)
}

func parseDepth(d int64) (int, error) {
	if d < 0 || d > math.MaxInt32 {
		return 0, fmt.Errorf("depth %d out of range (want 0 to %d)", d, math.MaxInt32)
	}
	return int(d), nil
}

// FormatReliability returns the parameter value of r.
func FormatReliability(r qos.Reliability) string {
	switch r {
	case qos.Reliable:
		return "reliable"
	case qos.BestEffort:
		return "best_effort"
	}
	return "system_default"
}

// FormatDurability returns the parameter value of d.
func FormatDurability(d qos.Durability) string {
	switch d {
	case qos.Volatile:
		return "volatile"
	case qos.TransientLocal:
		return "transient_local"
	}
	return "system_default"
}

// FormatHistory returns the parameter value of h.
func FormatHistory(h qos.History) string {
	switch h {
	case qos.KeepLast:
		return "keep_last"
	case qos.KeepAll:
		return "keep_all"
	}
	return "system_default"
}
