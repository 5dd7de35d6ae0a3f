// Package static serves the console page's files from memory, made for a
// narrow link: each file is compressed once at start (gzip, sent to the
// browsers that accept it) and carries a strong ETag, so the first load
// over a 3 Mbit/s radio link takes a quarter of the bytes and a reload
// takes none but the 304 answers. The page's files share the link with
// the live video, and a page load that fills the bottleneck's queue
// costs the video its packets.
//
// It imports nothing of the console; pkg/console hands it the embedded
// assets.
package static
