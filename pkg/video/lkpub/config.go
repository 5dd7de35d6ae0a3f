package lkpub

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"time"

	"github.com/livekit/protocol/auth"

	"github.com/telebridge/telebridge/pkg/video"
)

// Config is one connection to a LiveKit server and the cameras it
// publishes.
type Config struct {
	// URL is the LiveKit server's signalling address: ws://HOST:PORT or
	// wss://HOST[:PORT] (http and https are taken as ws and wss).
	// Required.
	URL string
	// APIKey and APISecret sign a fresh access token for every connection
	// (a publish-only grant for Room, valid TokenTTL). Either both, or
	// Token.
	APIKey, APISecret string
	// Token is a ready access token (a JWT with roomJoin and canPublish for
	// Room), used as it is for every connection: when it expires the
	// publisher keeps retrying and says so in the log. Either Token, or
	// APIKey and APISecret.
	Token string
	// Room is the room to publish into. Required with APIKey; with Token
	// the token names the room.
	Room string
	// Identity is the participant identity in the room. Default
	// "telebridge".
	Identity string
	// Name is the participant's display name. Default Identity.
	Name string
	// TokenTTL is how long a signed token is valid [s]. Default 6 h.
	TokenTTL time.Duration
	// Cameras are published, one video track each. At least one.
	Cameras []Camera
	// MinBackoff and MaxBackoff bound the wait before a reconnect [s]: it
	// doubles from MinBackoff after every failed attempt, up to
	// MaxBackoff, with ±25 % jitter. Defaults 500 ms and 30 s.
	MinBackoff, MaxBackoff time.Duration
	// ConnectTimeout bounds one connection attempt (signalling and ICE)
	// [s]. Default 15 s.
	ConnectTimeout time.Duration
	// Depth is each camera's viewer queue [access units]. Default 30.
	Depth int
	// Logger receives connection events and the SDK's warnings.
	// Default slog.Default().
	Logger *slog.Logger
}

// Camera is one published camera.
type Camera struct {
	// Name is the camera's name (logs and Stats). Required.
	Name string
	// Track is the track's name in the room. Default Name.
	Track string
	// Source is the camera's encoded video, shared with every other viewer
	// of the camera. Required.
	Source video.Source
	// Bitrate is this viewer's budget [bit/s] (video.Viewer.WantBitrate):
	// the camera's one encoder runs at the lowest budget among its
	// viewers. Default 0: no opinion (the Source's own bitrate).
	Bitrate int
}

// Defaults of Config.
const (
	DefaultIdentity       = "telebridge"
	DefaultTokenTTL       = 6 * time.Hour
	DefaultMinBackoff     = 500 * time.Millisecond
	DefaultMaxBackoff     = 30 * time.Second
	DefaultConnectTimeout = 15 * time.Second
	DefaultDepth          = 30
)

// ErrBadConfig is wrapped by every error of New about its Config.
var ErrBadConfig = errors.New("bad LiveKit configuration")

// namePattern is what this package accepts as a track name, identity or
// room: printable, no spaces or slashes that would need quoting in logs
// and URLs.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.:@+-]{1,128}$`)

// normalize checks c and fills the defaults.
func (c Config) normalize() (Config, error) {
	bad := func(format string, a ...any) (Config, error) {
		return c, fmt.Errorf("lkpub: %s: %w", fmt.Sprintf(format, a...), ErrBadConfig)
	}
	u, err := url.Parse(c.URL)
	if c.URL == "" || err != nil {
		return bad("URL %q: want ws://HOST:PORT or wss://HOST", c.URL)
	}
	switch u.Scheme {
	case "ws", "wss":
	case "http":
		u.Scheme = "ws"
	case "https":
		u.Scheme = "wss"
	default:
		return bad("URL %q: scheme %q: want ws or wss", c.URL, u.Scheme)
	}
	if u.Host == "" {
		return bad("URL %q: no host", c.URL)
	}
	c.URL = u.String()
	haveKey := c.APIKey != "" || c.APISecret != ""
	switch {
	case haveKey && c.Token != "":
		return bad("both an API key and a token: give one")
	case haveKey && (c.APIKey == "" || c.APISecret == ""):
		return bad("an API key needs its secret and the secret its key")
	case !haveKey && c.Token == "":
		return bad("no credentials: an API key and secret, or a token")
	case haveKey && c.Room == "":
		return bad("no room")
	}
	if c.Room != "" && !namePattern.MatchString(c.Room) {
		return bad("room %q: want 1..128 of A-Z a-z 0-9 _ . : @ + -", c.Room)
	}
	c.Identity = cmp.Or(c.Identity, DefaultIdentity)
	if !namePattern.MatchString(c.Identity) {
		return bad("identity %q: want 1..128 of A-Z a-z 0-9 _ . : @ + -", c.Identity)
	}
	c.Name = cmp.Or(c.Name, c.Identity)
	c.TokenTTL = cmp.Or(c.TokenTTL, DefaultTokenTTL)
	c.MinBackoff = cmp.Or(c.MinBackoff, DefaultMinBackoff)
	c.MaxBackoff = cmp.Or(c.MaxBackoff, DefaultMaxBackoff)
	c.ConnectTimeout = cmp.Or(c.ConnectTimeout, DefaultConnectTimeout)
	c.Depth = cmp.Or(c.Depth, DefaultDepth)
	switch {
	case c.TokenTTL < time.Minute:
		return bad("token lifetime %v: want at least 1 min", c.TokenTTL)
	case c.MinBackoff <= 0 || c.MaxBackoff < c.MinBackoff:
		return bad("backoff %v..%v: want 0 < min <= max", c.MinBackoff, c.MaxBackoff)
	case c.ConnectTimeout <= 0:
		return bad("connect timeout %v: want > 0", c.ConnectTimeout)
	case c.Depth < 1 || c.Depth > video.MaxDepth:
		return bad("depth %d: want 1..%d", c.Depth, video.MaxDepth)
	case len(c.Cameras) == 0:
		return bad("no camera to publish")
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	cams := make([]Camera, len(c.Cameras))
	tracks := map[string]bool{}
	for i, cam := range c.Cameras {
		if cam.Name == "" || cam.Source == nil {
			return bad("camera %d: a name and a source are required", i)
		}
		if cam.Track == "" {
			cam.Track = cam.Name
		}
		if !namePattern.MatchString(cam.Track) {
			return bad("camera %s: track name %q: want 1..128 of A-Z a-z 0-9 _ . : @ + -", cam.Name, cam.Track)
		}
		if tracks[cam.Track] {
			return bad("track name %q used twice", cam.Track)
		}
		tracks[cam.Track] = true
		if cam.Bitrate < 0 || cam.Bitrate > 100_000_000 {
			return bad("camera %s: bitrate %d bit/s: want 0..100000000", cam.Name, cam.Bitrate)
		}
		cams[i] = cam
	}
	c.Cameras = cams
	return c, nil
}

// PublisherToken signs an access token that lets identity join room and
// publish video, and nothing else (no subscribing, no data, no admin),
// valid for ttl.
func PublisherToken(apiKey, apiSecret, room, identity, name string, ttl time.Duration) (string, error) {
	no := false
	yes := true
	g := &auth.VideoGrant{RoomJoin: true, Room: room, CanPublish: &yes, CanSubscribe: &no, CanPublishData: &no}
	t, err := auth.NewAccessToken(apiKey, apiSecret).SetIdentity(identity).SetName(name).
		SetValidFor(ttl).SetVideoGrant(g).ToJWT()
	if err != nil {
		return "", fmt.Errorf("lkpub: sign token: %w", err)
	}
	return t, nil
}

// SubscriberToken signs an access token that lets identity join room and
// subscribe, and nothing else, valid for ttl: what a viewer (or a test)
// needs.
func SubscriberToken(apiKey, apiSecret, room, identity string, ttl time.Duration) (string, error) {
	no := false
	yes := true
	g := &auth.VideoGrant{RoomJoin: true, Room: room, CanPublish: &no, CanSubscribe: &yes, CanPublishData: &no}
	t, err := auth.NewAccessToken(apiKey, apiSecret).SetIdentity(identity).SetValidFor(ttl).SetVideoGrant(g).ToJWT()
	if err != nil {
		return "", fmt.Errorf("lkpub: sign token: %w", err)
	}
	return t, nil
}
