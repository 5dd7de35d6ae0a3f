// Command vizconfig writes the RViz configurations (rviz/*.rviz) and the
// Foxglove layouts (foxglove/telebridge-*.json) of pkg/vizconfig into the
// repository, from the nodes' topic names and frames and
// params/camera_publisher.yaml:
//
//	go generate ./pkg/vizconfig
//	go run ./internal/tools/vizconfig -root .
//
// With -namespace and -frame-prefix it writes the files of robots launched
// under a namespace (namespace:=robot1 frame_prefix:=robot1/) into -out
// instead, e.g. a Foxglove layout for two robots' graph:
//
//	go run ./internal/tools/vizconfig -root . -namespace robot1 -frame-prefix robot1/ -out /tmp/robot1
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/telebridge/telebridge/pkg/vizconfig"
)

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", "", "output directory (default: the repository root)")
	ns := flag.String("namespace", "", "namespace of the robots' nodes")
	prefix := flag.String("frame-prefix", "", "prefix of the robots' frame ids, e.g. robot1/")
	flag.Parse()
	if err := run(*root, *out, *ns, *prefix); err != nil {
		fmt.Fprintln(os.Stderr, "vizconfig:", err)
		os.Exit(1)
	}
}

func run(root, out, ns, prefix string) error {
	if out == "" {
		if ns != "" || prefix != "" {
			return fmt.Errorf("-namespace and -frame-prefix need -out: the repository holds the default namespace's files")
		}
		out = root
	}
	params, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(vizconfig.CameraParamsFile)))
	if err != nil {
		return err
	}
	files, err := vizconfig.Files(params, ns, prefix)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", p)
	}
	return nil
}
