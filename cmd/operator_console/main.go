//go:build ros2

// Command operator_console is the operator's browser console as a ROS 2
// node: it serves pkg/console's page and drives the running driver nodes
// over their topics and services (pkg/console/graph decides which). The
// robots' sockets stay with their drivers. Parameters:
// params/operator_console.yaml.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/graph"
)

func main() { rosnode.Main(graph.NodeName, run) }

func run(ctx context.Context, stop context.CancelFunc) error {
	n, err := rosnode.Start(rosnode.Options{Name: graph.NodeName, Args: os.Args[1:], Table: graph.NodeParameterTable()})
	if err != nil {
		return err
	}
	defer n.Close()
	cfg, err := graph.LoadNodeConfig(n.Params)
	if err != nil {
		return err
	}
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
	cams, err := newCameras(ctx, n, cfg, names)
	if err != nil {
		return err
	}
	defer cams.close()
	be.SetCameras(cams.streams())

	ccfg := console.Config{Backend: be, Listen: cfg.Listen, Logger: slog.Default(), BalanceThreshold: cfg.BalanceThreshold}
	opts := console.Options{Token: cfg.Token, TokensFile: cfg.TokensFile, TLS: cfg.TLS, CertFile: cfg.CertFile, KeyFile: cfg.KeyFile,
		Insecure: cfg.Insecure, StateDir: cfg.StateDir, AuditFile: cfg.AuditFile}
	setup, err := opts.Apply(&ccfg)
	if err != nil {
		return err
	}
	defer setup.Close()
	srv, err := console.New(ccfg)
	if err != nil {
		return err
	}
	log := n.Logger()
	for _, note := range setup.Notes {
		log.Infof("operator console: %s", note)
	}
	spinDone := n.SpinAsync(ctx)
	err = srv.ListenAndServe(ctx, func(url string) { log.Infof("operator console: open %s", url) })
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Errorf("console: %v", err)
	}
	stop()
	// The console zeroes what its pages held when it stops; say it once
	// more on the graph before the node goes, so no driver waits for its
	// own timeout.
	stopCtx, cancel := context.WithTimeout(context.Background(), cfg.ServiceTimeout)
	defer cancel()
	if cfg.Servosila {
		_ = be.DriveServosila(stopCtx, 0, 0)
	}
	if cfg.Furbot {
		_ = be.DriveFurbot(stopCtx, 0, 0)
	}
	<-spinDone
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("console: %w", err)
	}
	return nil
}
