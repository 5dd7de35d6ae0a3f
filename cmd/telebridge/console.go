package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/telebridge/telebridge/pkg/console"
	"github.com/telebridge/telebridge/pkg/console/access"
	"github.com/telebridge/telebridge/pkg/console/direct"
	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/peer"
)

func init() {
	register(command{
		name:    "console",
		summary: "operator console in the browser: Servosila, Furbot, jog arm and cameras (default: every machine simulated)",
		run:     runConsole,
	})
}

// stringsFlag collects a repeatable flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

func runConsole(ctx context.Context, args []string, io stdio) error {
	fs := newFlagSet("console", io)
	listen := fs.String("listen", "127.0.0.1:8080", "address to serve the console on; off loopback a token and TLS are required (plain HTTP only with --insecure)")
	robot := fs.String("servosila", "", "Servosila robot address HOST:PORT (e.g. 10.42.0.1:10000); empty: the embedded simulator; off: none")
	vehicle := fs.String("furbot", "", "Furbot control address HOST:PORT; empty: the embedded simulator; off: none")
	token := fs.String("token", "", "access token of an operator with every role, made by `telebridge token new` (default $"+access.TokenEnv+"; generated and printed when listening off loopback without --tokens)")
	var opts console.Options
	fs.StringVar(&opts.TokensFile, "tokens", "", "tokens file (YAML, mode 0600): operators with name, token and roles (view, drive, arm, admin)")
	fs.BoolVar(&opts.TLS, "tls", false, "serve HTTPS with a self-signed certificate made on first start in --state-dir (the default off loopback)")
	fs.StringVar(&opts.CertFile, "cert", "", "serve HTTPS with this certificate (PEM; with --key)")
	fs.StringVar(&opts.KeyFile, "key", "", "the key of --cert (PEM)")
	fs.BoolVar(&opts.Insecure, "insecure", false, "allow plain HTTP off loopback")
	fs.StringVar(&opts.StateDir, "state-dir", "", "directory of the self-signed certificate and the audit log (default $XDG_CONFIG_HOME/telebridge, i.e. os.UserConfigDir()/telebridge)")
	fs.StringVar(&opts.AuditFile, "audit", "", "audit log, JSON lines appended (default audit.jsonl in --state-dir; off: none)")
	balance := fs.Float64("balance-threshold", console.DefaultBalanceThreshold, "the Servosila's static stability margin [m] below which the page warns (3-D view and balance)")
	jogParams := fs.String("jog-params", "", "jog_server parameters file (ROS 2 YAML, node /jog_server) for the simulated jog arm: drag&bot's parameters, joint_limits with their steps")
	var ice stringsFlag
	fs.Var(&ice, "ice-server", "STUN or TURN server for the cameras' WebRTC on routed networks: stun:HOST[:PORT] or turn:USER:SECRET@HOST[:PORT] (repeatable; default none: host candidates only)")
	fs.BoolVar(&opts.NoWebRTC, "no-webrtc", false, "serve the cameras as MJPEG only (no WebRTC)")
	fs.IntVar(&opts.MaxPagesPerOperator, "max-pages-per-operator", console.DefaultMaxPagesPerOperator, "most pages (WebSockets) one operator may have open; more get 429")
	fs.IntVar(&opts.MaxPagesPerSource, "max-pages-per-source", console.DefaultMaxPagesPerSource, "most pages (WebSockets) open from one source address; more get 429")
	fs.BoolVar(&opts.MDNS, "webrtc-mdns", false, "resolve the pages' .local WebRTC candidates by multicast DNS (off: the console learns a page's address from its checks; docs/video-webrtc.md)")
	var cams stringsFlag
	fs.Var(&cams, "camera", "camera: a V4L2 device path, pattern:NAME, or world:NAME with --world (front, front_right, zoom, rear) (repeatable; default four pattern cameras, or the four rendered cameras with --world; off: none)")
	camWidth := fs.Int("camera-width", direct.DefaultCameraWidth, "width every camera is opened at [px] (even, 16..8192); H.264 is sent at most at this size")
	camHeight := fs.Int("camera-height", direct.DefaultCameraHeight, "height every camera is opened at [px] (even, 16..8192)")
	camRate := fs.Float64("camera-fps", direct.DefaultCameraRate, "frame rate every camera is opened at [Hz] (0.1..1000); H.264 is sent at most at this rate")
	world := fs.String("world", "", "training world: a shipped world's name (course, yard) or an SDF file; the embedded Servosila simulator drives the physics robot in it and the cameras are rendered from it (falls back to the kinematic simulator and pattern cameras, with one line saying why, where ODE or EGL is missing)")
	var lk livekitFlags
	lk.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := lk.check(); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if err := direct.CheckCameraMode(*camWidth, *camHeight, *camRate); err != nil {
		return fmt.Errorf("%w: --camera-width %d --camera-height %d --camera-fps %v: %w", errUsage, *camWidth, *camHeight, *camRate, err)
	}
	if *token == "" {
		*token = os.Getenv(access.TokenEnv)
	}
	opts.Token = *token
	opts.ICEServers = ice
	ccfg := console.Config{Listen: *listen, BalanceThreshold: *balance}
	setup, err := opts.Apply(&ccfg)
	if err != nil {
		return err
	}
	defer setup.Close()
	be, err := direct.Start(ctx, direct.Config{Servosila: *robot, Furbot: *vehicle, Cameras: cams, JogParamsFile: *jogParams,
		CameraWidth: *camWidth, CameraHeight: *camHeight, CameraRate: *camRate, World: *world})
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	ccfg.Backend = be
	if why := be.VideoUnavailable(); why != "" && !opts.NoWebRTC && len(be.Info().Cameras) > 0 {
		// One line, at start: why the cameras are MJPEG only (e.g. what
		// to install for H.264).
		setup.Notes = append(setup.Notes, "(cameras: MJPEG only, no WebRTC: "+why+")")
	}
	ccfg.Logger = slog.New(slog.NewTextHandler(io.err, &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv, err := console.New(ccfg)
	if err != nil {
		return errors.Join(err, be.Close())
	}
	if lk.enabled() {
		pub, err := lk.publisher(be.Info().Cameras, func(name string) (video.Source, error) { return be.OpenVideo(name, peer.Caps{}) }, ccfg.Logger)
		if err != nil {
			return errors.Join(err, be.Close())
		}
		lctx, stop := context.WithCancel(ctx)
		wait := runLiveKit(lctx, pub, ccfg.Logger)
		defer wait()
		defer stop()
		setup.Notes = append(setup.Notes, fmt.Sprintf("(LiveKit: every camera published once into %s, tracks: %d)", lk.url, len(be.Info().Cameras)))
	}
	if w := be.WorldStatus(); w != "" {
		// What the operator trains in, or why the world fell back.
		setup.Notes = append(setup.Notes, "("+w+")")
	}
	err = srv.ListenAndServe(ctx, func(url string) {
		// One write, so that a reader never sees the URL without its notes.
		var msg strings.Builder
		fmt.Fprintf(&msg, "telebridge console: open %s\n", url)
		if h, _, err := net.SplitHostPort(*listen); err == nil && (h == "" || net.ParseIP(h).IsUnspecified()) {
			msg.WriteString("  (listening on every interface: from another device, use this machine's address and the same port)\n")
		}
		if srv.Token() != "" && *token == "" {
			fmt.Fprintf(&msg, "  (access token generated for this run; set $%s, --token or --tokens to choose)\n", access.TokenEnv)
		}
		if opts.TokensFile != "" {
			msg.WriteString("  (operators from the tokens file open this address and log in with their own token)\n")
		}
		for _, n := range setup.Notes {
			fmt.Fprintf(&msg, "  %s\n", n)
		}
		msg.WriteString("  Ctrl-C stops every machine and exits.\n")
		fmt.Fprint(io.out, msg.String())
	})
	// The server has zeroed every held command; the drivers now send
	// their stops before their sockets close.
	if cerr := be.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		fmt.Fprintln(io.out, "telebridge console: machines stopped, bye")
	}
	return err
}
