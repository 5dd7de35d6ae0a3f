//go:build ros2

// Command furbot_bridge is the UDP <-> ROS 2 node of the Furbot stack: it
// receives the vehicle's status frames and publishes every subsystem's
// telemetry at 100 Hz once all of them work; it sends one control frame per
// period from the ControlSignals of furbot_twist_control (full brake when
// they are stale); it publishes /diagnostics and the battery state and
// serves e-stop and release. On SIGINT/SIGTERM it sends full-brake frames
// before it exits. Parameters: pkg/furbot/node's BridgeNodeBindings
// (params/furbot_bridge.yaml).
package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	diagnostic_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/diagnostic_msgs/msg"
	sensor_msgs_msg "github.com/telebridge/telebridge/internal/rosmsg/sensor_msgs/msg"
	std_srvs_srv "github.com/telebridge/telebridge/internal/rosmsg/std_srvs/srv"
	tbi "github.com/telebridge/telebridge/internal/rosmsg/telebridge_interfaces/msg"
	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/furbot"
	furbotnode "github.com/telebridge/telebridge/pkg/furbot/node"
	"github.com/tiiuae/rclgo/pkg/rclgo"
)

func main() {
	rosnode.Run(rosnode.Spec[furbotnode.BridgeNodeConfig]{
		Name: furbotnode.BridgeName, Table: furbotnode.BridgeNodeParameterTable(), Load: furbotnode.LoadBridgeNodeConfig,
		Publishers: furbotnode.BridgePublishers,
	}, setup)
}

// setup builds the bridge and wires it: the control signals and the
// services reach it, a loop publishes what it hands over.
func setup(n *rosnode.Node, cfg furbotnode.BridgeNodeConfig) error {
	// The bridge hands every snapshot to the publisher goroutine; the
	// loop never waits for ROS (a full queue drops the snapshot, counted).
	snaps := make(chan furbot.Snapshot, snapshotQueue)
	var dropped atomic.Uint64
	cfg.Bridge.OnSnapshot = func(s *furbot.Snapshot) {
		select {
		case snaps <- *s:
		default:
			dropped.Add(1)
		}
	}
	br, err := furbot.NewBridge(cfg.Bridge)
	if err != nil {
		return err
	}
	if err := wire(n, br); err != nil {
		br.Close()
		return err
	}
	pubs, err := newPublishers(n, cfg)
	if err != nil {
		br.Close()
		return err
	}
	log := n.Logger()
	n.Go("bridge", func(ctx context.Context) error {
		// Run sends the full-brake frames before it returns.
		err := br.Run(ctx)
		if err == nil {
			log.Infof("vehicle told to stop (%d full-brake frames sent); shutting down", cfg.Bridge.StopFrames)
		}
		return err
	})
	n.Go("publish loop", func(ctx context.Context) error {
		tick := time.NewTicker(cfg.DiagnosticsPeriod)
		defer tick.Stop()
		err := pubs.loop(ctx, br, n, snaps, tick.C)
		if d := dropped.Load(); d > 0 {
			log.Warnf("%d snapshots dropped: the publishers fell behind", d)
		}
		return err
	})
	log.Infof("vehicle %s, status frames on %v; telemetry starts once every subsystem works", cfg.VehicleAddress, br.Addr())
	return nil
}

// wire subscribes the control signals and serves e-stop and release.
// Callbacks only hand values to the bridge; they never block.
func wire(n *rosnode.Node, br *furbot.Bridge) error {
	log := n.Logger()
	var refused uint64
	_, err := tbi.NewControlSignalsSubscription(n.Node, furbotnode.TopicControl, rosnode.SubOpts(furbotnode.QoSControl),
		func(msg *tbi.ControlSignals, _ *rclgo.MessageInfo, err error) {
			if err != nil {
				return
			}
			if err := br.SetControl(rosnode.FurbotControlOf(msg), time.Now()); err != nil {
				refused++
				if refused&(refused-1) == 0 { // 1, 2, 4, 8, ...: do not flood the log
					log.Warnf("control signals refused (%d so far): %v", refused, err)
				}
			}
		})
	if err != nil {
		return fmt.Errorf("subscribe %s: %w", furbotnode.TopicControl, err)
	}
	opts := rosnode.SrvOpts(furbotnode.QoSServices)
	trigger := func(name, done string, on bool) error {
		_, err := std_srvs_srv.NewTriggerService(n.Node, name, opts,
			func(_ *rclgo.ServiceInfo, _ *std_srvs_srv.Trigger_Request, send std_srvs_srv.TriggerServiceResponseSender) {
				br.SetEStop(on)
				log.Infof("%s", done)
				resp := std_srvs_srv.NewTrigger_Response()
				resp.Success, resp.Message = true, done
				if err := send.SendResponse(resp); err != nil {
					log.Warnf("%s response: %v", name, err)
				}
			})
		if err != nil {
			return fmt.Errorf("service %s: %w", name, err)
		}
		return nil
	}
	if err := trigger(furbotnode.ServiceEStop, "emergency stop latched: full brake until release", true); err != nil {
		return err
	}
	return trigger(furbotnode.ServiceRelease, "emergency stop released", false)
}

// publishers owns the node's outputs and their reused messages.
type publishers struct {
	node       string // fully qualified, names the diagnostics
	cfg        furbotnode.BridgeNodeConfig
	traction   *tbi.TractionDataPublisher
	steering   *tbi.SteeringDataPublisher
	status     *tbi.VehicleStatusPublisher
	bms        *tbi.BmsDataPublisher
	hydraulics *tbi.HydraulicsDataPublisher
	suspension *tbi.SuspensionDataPublisher
	forks      *tbi.ForkDataPublisher
	sent       *tbi.ControlSignalsPublisher
	battery    *sensor_msgs_msg.BatteryStatePublisher
	diag       *diagnostic_msgs_msg.DiagnosticArrayPublisher

	tractionMsg   tbi.TractionData
	steeringMsg   tbi.SteeringData
	statusMsg     tbi.VehicleStatus
	bmsMsg        tbi.BmsData
	hydraulicsMsg tbi.HydraulicsData
	suspensionMsg tbi.SuspensionData
	forksMsg      tbi.ForkData
	sentMsg       tbi.ControlSignals
	batteryMsg    sensor_msgs_msg.BatteryState

	log   *rclgo.Logger
	stale bool // the latest snapshot braked for stale control signals
}

func newPublishers(n *rosnode.Node, cfg furbotnode.BridgeNodeConfig) (*publishers, error) {
	p := &publishers{cfg: cfg, log: n.Logger(), node: n.FullyQualifiedName()}
	var err error
	fail := func(topic string, err error) (*publishers, error) {
		return nil, fmt.Errorf("publisher %s: %w", topic, err)
	}
	// Every publisher but /diagnostics is a sensor publisher with
	// qos_overrides (furbotnode.BridgePublishers).
	opts := map[string]*rclgo.PublisherOptions{}
	for _, pub := range furbotnode.BridgePublishers {
		if opts[pub.Topic], err = n.PublisherOpts(pub.Topic); err != nil {
			return nil, err
		}
	}
	if p.traction, err = tbi.NewTractionDataPublisher(n.Node, furbotnode.TopicTraction, opts[furbotnode.TopicTraction]); err != nil {
		return fail(furbotnode.TopicTraction, err)
	}
	if p.steering, err = tbi.NewSteeringDataPublisher(n.Node, furbotnode.TopicSteering, opts[furbotnode.TopicSteering]); err != nil {
		return fail(furbotnode.TopicSteering, err)
	}
	if p.status, err = tbi.NewVehicleStatusPublisher(n.Node, furbotnode.TopicStatus, opts[furbotnode.TopicStatus]); err != nil {
		return fail(furbotnode.TopicStatus, err)
	}
	if p.bms, err = tbi.NewBmsDataPublisher(n.Node, furbotnode.TopicBMS, opts[furbotnode.TopicBMS]); err != nil {
		return fail(furbotnode.TopicBMS, err)
	}
	if p.hydraulics, err = tbi.NewHydraulicsDataPublisher(n.Node, furbotnode.TopicHydraulics, opts[furbotnode.TopicHydraulics]); err != nil {
		return fail(furbotnode.TopicHydraulics, err)
	}
	if p.suspension, err = tbi.NewSuspensionDataPublisher(n.Node, furbotnode.TopicSuspension, opts[furbotnode.TopicSuspension]); err != nil {
		return fail(furbotnode.TopicSuspension, err)
	}
	if p.forks, err = tbi.NewForkDataPublisher(n.Node, furbotnode.TopicForks, opts[furbotnode.TopicForks]); err != nil {
		return fail(furbotnode.TopicForks, err)
	}
	if p.sent, err = tbi.NewControlSignalsPublisher(n.Node, furbotnode.TopicControlSent, opts[furbotnode.TopicControlSent]); err != nil {
		return fail(furbotnode.TopicControlSent, err)
	}
	if p.battery, err = sensor_msgs_msg.NewBatteryStatePublisher(n.Node, furbotnode.TopicBattery, opts[furbotnode.TopicBattery]); err != nil {
		return fail(furbotnode.TopicBattery, err)
	}
	if p.diag, err = diagnostic_msgs_msg.NewDiagnosticArrayPublisher(n.Node, furbotnode.TopicDiagnostics, rosnode.PubOpts(furbotnode.QoSDiagnostics)); err != nil {
		return fail(furbotnode.TopicDiagnostics, err)
	}
	return p, nil
}

// snapshotQueue is how many snapshots may wait for the publishers (100 ms
// at 100 Hz).
const snapshotQueue = 10

// loop publishes the telemetry of every snapshot the bridge hands over
// (one per bridge period once every subsystem has worked), and the
// battery state and diagnostics at every tick, until ctx ends.
func (p *publishers) loop(ctx context.Context, br *furbot.Bridge, n *rosnode.Node, snaps <-chan furbot.Snapshot, tick <-chan time.Time) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case snap := <-snaps:
			if err := p.telemetry(&snap, n.Now()); err != nil {
				return err
			}
		case <-tick:
			if err := p.slow(br, n.Now()); err != nil {
				return err
			}
		}
	}
}

// slow publishes the battery state and the diagnostics.
func (p *publishers) slow(br *furbot.Bridge, now time.Time) error {
	snap, ok := br.Latest()
	if ok {
		rosnode.FurbotBattery(&p.batteryMsg, &snap.Status, now, p.cfg.BaseFrame)
		if err := p.battery.Publish(&p.batteryMsg); err != nil {
			return fmt.Errorf("publish %s: %w", furbotnode.TopicBattery, err)
		}
	}
	d := furbotnode.DiagnoseBridge(p.cfg, snap, ok, br.Stats(), time.Now())
	if err := p.diag.Publish(rosnode.Diagnostics(p.node, now, d...)); err != nil {
		return fmt.Errorf("publish diagnostics: %w", err)
	}
	return nil
}

func (p *publishers) telemetry(snap *furbot.Snapshot, now time.Time) error {
	// Say when the vehicle starts braking for lack of control signals
	// (furbot_twist_control silent or late), and when it stops.
	if stale := snap.Ready && snap.Output.Stale; stale != p.stale {
		p.stale = stale
		if stale {
			p.log.Warnf("no control signals for %v: vehicle disabled with full brake", p.cfg.Bridge.ControlTimeout)
		} else {
			p.log.Infof("control signals received: applying them")
		}
	}
	s, frame := &snap.Status, p.cfg.BaseFrame
	rosnode.FurbotTraction(&p.tractionMsg, s.Traction, s.Timestamp, now, frame)
	rosnode.FurbotSteering(&p.steeringMsg, s.Steering, s.Timestamp, now, frame)
	rosnode.FurbotStatus(&p.statusMsg, s, snap.Age() <= p.cfg.Bridge.LinkTimeout, now, frame)
	rosnode.FurbotBMS(&p.bmsMsg, s, now, frame)
	rosnode.FurbotHydraulics(&p.hydraulicsMsg, s, now, frame)
	rosnode.FurbotSuspension(&p.suspensionMsg, s, now, frame)
	rosnode.FurbotForks(&p.forksMsg, s, now, frame)
	rosnode.FurbotControl(&p.sentMsg, snap.Output, now)
	for _, e := range []struct {
		topic string
		pub   func() error
	}{
		{furbotnode.TopicTraction, func() error { return p.traction.Publish(&p.tractionMsg) }},
		{furbotnode.TopicSteering, func() error { return p.steering.Publish(&p.steeringMsg) }},
		{furbotnode.TopicStatus, func() error { return p.status.Publish(&p.statusMsg) }},
		{furbotnode.TopicBMS, func() error { return p.bms.Publish(&p.bmsMsg) }},
		{furbotnode.TopicHydraulics, func() error { return p.hydraulics.Publish(&p.hydraulicsMsg) }},
		{furbotnode.TopicSuspension, func() error { return p.suspension.Publish(&p.suspensionMsg) }},
		{furbotnode.TopicForks, func() error { return p.forks.Publish(&p.forksMsg) }},
		{furbotnode.TopicControlSent, func() error { return p.sent.Publish(&p.sentMsg) }},
	} {
		if err := e.pub(); err != nil {
			return fmt.Errorf("publish %s: %w", e.topic, err)
		}
	}
	return nil
}
