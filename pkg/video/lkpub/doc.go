// Package lkpub publishes cameras into a LiveKit room: the robot sends
// each camera once to an SFU (a LiveKit server on a site with a good
// network), which serves the many viewers, at many sites, that the
// robot's own uplink could not. It uses LiveKit's Go server SDK
// (github.com/livekit/server-sdk-go/v2).
//
// # Use
//
//	p, err := lkpub.New(lkpub.Config{
//		URL: "ws://sfu.example:7880", APIKey: key, APISecret: secret, Room: "robot1",
//		Cameras: []lkpub.Camera{{Name: "front", Track: "robot1-front", Source: front}},
//	})
//	err = p.Run(ctx) // until ctx ends
//
// Each camera is one H.264 video track (source "camera", its own stream),
// named Camera.Track. Its access units come from a pkg/video Viewer of the
// camera's Source: the same encoder that serves the console's WebRTC pages,
// so publishing adds no encoding (the encoder runs at the lowest bitrate
// any of its viewers asks for, Camera.Bitrate for this one). A PLI or FIR
// that the SFU forwards from a subscriber, and every new binding of the
// track, ask the encoder for a keyframe.
//
// # Credentials
//
// With an API key and secret, every connection signs a fresh token that
// may join Config.Room and publish, and nothing else (PublisherToken).
// Config.Token is a ready token instead, used as it is. SubscriberToken
// makes a viewer's token (tests, tools).
//
// # Connection
//
// Run joins the room and publishes every camera. When the connection is
// interrupted the SDK first resumes or rejoins by itself (publishing the
// same tracks again; Stats.Resumes counts those); when it gives up, or a
// join fails, Run waits Config.MinBackoff, doubling up to MaxBackoff with
// ±25 % jitter (Backoff), and joins again; a connection that reached the
// room resets the wait. The cameras are subscribed only while connected:
// while the SFU cannot be reached, nothing is encoded for it, and without
// a Publisher nothing is encoded at all.
//
// # Tests
//
// The test against a real server runs livekit-server --dev (found through
// $LIVEKIT_SERVER or PATH; skipped with the reason when there is none) on
// loopback ports picked free; scripts/check.d/livekit.sh builds the server
// from its Go module and runs the test in a network namespace of its own.
package lkpub
