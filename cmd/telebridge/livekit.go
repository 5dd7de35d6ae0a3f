package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"

	"github.com/telebridge/telebridge/pkg/video"
	"github.com/telebridge/telebridge/pkg/video/lkpub"
)

// Environment variables that stand in for the LiveKit flags that carry
// secrets (a command line is visible to every user of the machine).
const (
	envLiveKitKey    = "LIVEKIT_API_KEY"
	envLiveKitSecret = "LIVEKIT_API_SECRET"
	envLiveKitToken  = "LIVEKIT_TOKEN"
)

// livekitFlags are the options that publish every camera into a LiveKit
// room (an SFU that serves the many viewers the robot's uplink cannot).
type livekitFlags struct {
	url, room, key, secret, token, identity string
	bitrate                                 int
	tracks                                  stringsFlag
}

func (l *livekitFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.url, "livekit-url", "", "publish every camera once into this LiveKit server (ws://HOST:7880 or wss://HOST), one H.264 track each, for viewers beyond the robot's uplink; default: none (nothing is encoded for it)")
	fs.StringVar(&l.room, "livekit-room", "", "LiveKit room to publish into (required with an API key)")
	fs.StringVar(&l.key, "livekit-api-key", "", "LiveKit API key that signs the publisher's token (default $"+envLiveKitKey+")")
	fs.StringVar(&l.secret, "livekit-api-secret", "", "its secret (default $"+envLiveKitSecret+"; prefer the variable: a command line is visible to every user)")
	fs.StringVar(&l.token, "livekit-token", "", "a ready LiveKit access token with roomJoin and canPublish, instead of the API key (default $"+envLiveKitToken+")")
	fs.StringVar(&l.identity, "livekit-identity", lkpub.DefaultIdentity, "participant identity of the robot in the room")
	fs.IntVar(&l.bitrate, "livekit-bitrate", 0, "budget of each camera's LiveKit track [bit/s]; the camera's one encoder runs at the lowest budget among its viewers (default 0: no opinion)")
	fs.Var(&l.tracks, "livekit-track", "CAMERA=NAME: the track name of a camera in the room (repeatable; default the camera's name)")
}

// enabled says whether --livekit-url was given.
func (l *livekitFlags) enabled() bool { return l.url != "" }

// check reports flags given without --livekit-url (a typo would otherwise
// publish nothing, silently).
func (l *livekitFlags) check() error {
	if l.url == "" && (l.room != "" || l.key != "" || l.secret != "" || l.token != "" || len(l.tracks) > 0 || l.bitrate != 0) {
		return fmt.Errorf("%w: --livekit-* options without --livekit-url", errUsage)
	}
	return nil
}

// publisher makes the publisher of cameras, whose encoded video open
// returns (the same Source the console's pages share).
func (l *livekitFlags) publisher(cameras []string, open func(string) (video.Source, error), log *slog.Logger) (*lkpub.Publisher, error) {
	key, secret, token := l.key, l.secret, l.token
	if key == "" && secret == "" && token == "" {
		key, secret, token = os.Getenv(envLiveKitKey), os.Getenv(envLiveKitSecret), os.Getenv(envLiveKitToken)
		if token != "" && key != "" {
			token = "" // both in the environment: the key signs a fresh token per connection
		}
	}
	names := map[string]string{}
	for _, t := range l.tracks {
		cam, name, ok := strings.Cut(t, "=")
		if !ok || cam == "" || name == "" {
			return nil, fmt.Errorf("%w: --livekit-track %q: want CAMERA=NAME", errUsage, t)
		}
		names[cam] = name
	}
	var cams []lkpub.Camera
	for _, c := range cameras {
		src, err := open(c)
		if err != nil {
			return nil, fmt.Errorf("livekit: camera %s: %w", c, err)
		}
		cams = append(cams, lkpub.Camera{Name: c, Track: names[c], Source: src, Bitrate: l.bitrate})
		delete(names, c)
	}
	for c := range names {
		return nil, fmt.Errorf("%w: --livekit-track %s=...: no camera %q (cameras: %s)", errUsage, c, c, strings.Join(cameras, ", "))
	}
	return lkpub.New(lkpub.Config{URL: l.url, APIKey: key, APISecret: secret, Token: token, Room: l.room,
		Identity: l.identity, Cameras: cams, Logger: log})
}

// runLiveKit runs p until ctx ends; wait blocks until it has left the
// room. A camera source that stops is logged.
func runLiveKit(ctx context.Context, p *lkpub.Publisher, log *slog.Logger) (wait func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := p.Run(ctx); err != nil {
			log.Error("livekit: publisher stopped", "err", err)
		}
	}()
	return wg.Wait
}
