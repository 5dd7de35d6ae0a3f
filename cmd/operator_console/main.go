//go:build ros2

// Command operator_console is the operator's browser console as a ROS 2
// node: it serves pkg/console's page and drives the running driver nodes
// over their topics and services (pkg/console/graph decides which). The
// robots' sockets stay with their drivers. Parameters:
// params/operator_console.yaml.
package main

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
	"github.com/telebridge/telebridge/pkg/diag"
	"github.com/telebridge/telebridge/pkg/rate"
)

func main() {
	rosnode.Run(rosnode.Spec[graph.NodeConfig]{
		Name: graph.NodeName, Table: graph.NodeParameterTable(), Load: graph.LoadNodeConfig,
	}, setup)
}

// setup builds the backend on the graph (publishers, clients,
// subscriptions, camera streams) and the console that serves it.
func setup(n *rosnode.Node, cfg graph.NodeConfig) error {
	names, err := cfg.Names()
	if err != nil {
		return err
	}
	p, err := newPort(n, names)
	if err != nil {
		return err
	}
	be, err := graph.New(cfg, p, nil)
	if err != nil {
		return err
	}
	if err := subscribe(n, names, be); err != nil {
		return err
	}
	cams, err := newCameras(n, cfg, names)
	if err != nil {
		return err
	}
	be.SetCameras(cams.streams())
	be.SetVideo(cams.families())
	if err := n.PublishDiagnostics(func(now time.Time) []diag.Status { return []diag.Status{be.Diagnose(now)} }); err != nil {
		return err
	}

	ccfg := console.Config{Backend: be, Listen: cfg.Listen, Logger: slog.Default(), BalanceThreshold: cfg.BalanceThreshold}
	opts := console.Options{Token: cfg.Token, TokensFile: cfg.TokensFile, TLS: cfg.TLS, CertFile: cfg.CertFile, KeyFile: cfg.KeyFile,
		Insecure: cfg.Insecure, StateDir: cfg.StateDir, AuditFile: cfg.AuditFile, ICEServers: splitList(cfg.ICEServers), NoWebRTC: !cfg.WebRTC}
	if cfg.WebRTCLoopback {
		ccfg.WebRTC.Loopback = true
		ccfg.WebRTC.IPFilter = func(ip net.IP) bool { return ip.IsLoopback() }
	}
	setup, err := opts.Apply(&ccfg)
	if err != nil {
		return err
	}
	srv, err := console.New(ccfg)
	if err != nil {
		_ = setup.Close()
		return err
	}
	// The audit log stays open until every goroutine has ended.
	n.Finally(func() { _ = setup.Close() })
	log := n.Logger()
	for _, note := range setup.Notes {
		log.Infof("operator console: %s", note)
	}
	n.Go("cameras", cams.run)
	if cfg.TwistMux {
		// The e-stop lock again every second: a twist_mux started after
		// the console (or restarted) learns the latch.
		n.Go("twist_mux lock", func(ctx context.Context) error {
			return rate.Run(ctx, time.Second, func(rate.Tick) error {
				if err := be.PublishLocks(); err != nil {
					log.Warnf("twist_mux lock: %v", err)
				}
				return nil
			})
		})
	}
	n.Go("console", func(ctx context.Context) error {
		err := srv.ListenAndServe(ctx, func(url string) { log.Infof("operator console: open %s", url) })
		// The console zeroes what its pages held when it stops; say it
		// once more on the graph before the node goes, so no driver waits
		// for its own timeout.
		stopCtx, cancel := context.WithTimeout(context.Background(), cfg.ServiceTimeout)
		defer cancel()
		if cfg.Servosila {
			_ = be.DriveServosila(stopCtx, 0, 0)
		}
		if cfg.Furbot {
			_ = be.DriveFurbot(stopCtx, 0, 0)
		}
		return err
	})
	return nil
}

// splitList splits a comma-separated parameter, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
