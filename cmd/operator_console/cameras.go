//go:build ros2

package main

import (
	"context"
	"net/http"

	"github.com/telebridge/telebridge/internal/rosnode"
	"github.com/telebridge/telebridge/pkg/console/graph"
)

type cameras struct{}

func newCameras(context.Context, *rosnode.Node, graph.NodeConfig, graph.Names) (*cameras, error) {
	return &cameras{}, nil
}
func (cs *cameras) handlers() map[string]http.Handler { return nil }
func (cs *cameras) close()                            {}
