// Package video turns camera frames into live, encoded video for remote
// viewers: one encoder per camera and setting, shared by every viewer, and
// nothing encoded while nobody watches.
//
// The contract between the encoding side (this package) and the senders
// (WebRTC peers, plain RTP, an SFU publisher) is Source and Viewer: a
// sender subscribes a Viewer to a camera's Source, reads access units from
// it, says how many bits per second its link carries, and asks for a
// keyframe when its receiver lost one.
package video
