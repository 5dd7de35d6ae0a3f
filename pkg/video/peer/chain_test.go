package peer

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/pion/interceptor"
	"github.com/pion/interceptor/pkg/cc"
	"github.com/pion/rtp"
	"github.com/pion/sdp/v3"
	"github.com/pion/webrtc/v4"
)

// TestInterceptorOrder builds a session's interceptors as newAPI does and
// checks what reaches the network: a packet carries its MID and a
// transport-wide sequence number; its retransmission, asked for by a
// NACK, carries the MID too and a new transport-wide number (it went the
// whole way again: the resender is outermost), and both were counted as
// sent.
func TestInterceptorOrder(t *testing.T) {
	srv := &Server{cfg: Config{InitialBitrate: 1_000_000, MinBitrate: 100_000, MaxBitrate: 20_000_000}}
	own := &sessionInterceptors{}
	own.target.Store(1_000_000)
	reg, err := srv.interceptors(&webrtc.MediaEngine{}, make(chan cc.BandwidthEstimator, 1), own)
	if err != nil {
		t.Fatal(err)
	}
	ic, err := reg.Build("test")
	if err != nil {
		t.Fatal(err)
	}
	defer ic.Close()
	const ssrc, midID, twccID = 0x1234, 1, 2
	own.mids.bySSRC = map[uint32][]byte{ssrc: []byte("7")}

	var rtcpIn []byte
	reader := ic.BindRTCPReader(interceptor.RTCPReaderFunc(func(b []byte, a interceptor.Attributes) (int, interceptor.Attributes, error) {
		return copy(b, rtcpIn), a, nil
	}))
	type wire struct {
		h       rtp.Header
		mid     []byte
		twcc    uint16
		payload []byte
	}
	var got []wire
	w := ic.BindLocalStream(&interceptor.StreamInfo{SSRC: ssrc, ClockRate: 90000, MimeType: webrtc.MimeTypeH264,
		RTPHeaderExtensions: []interceptor.RTPHeaderExtension{{URI: sdp.SDESMidURI, ID: midID}, {URI: sdp.TransportCCURI, ID: twccID}}},
		interceptor.RTPWriterFunc(func(h *rtp.Header, payload []byte, _ interceptor.Attributes) (int, error) {
			var tcc rtp.TransportCCExtension
			if err := tcc.Unmarshal(h.GetExtension(twccID)); err != nil {
				t.Errorf("packet %d without a transport-wide sequence number: %v", h.SequenceNumber, err)
			}
			got = append(got, wire{h: *h, mid: bytes.Clone(h.GetExtension(midID)), twcc: tcc.TransportSequence, payload: bytes.Clone(payload)})
			return len(payload), nil
		}))

	payload := []byte("an access unit's payload")
	if _, err := w.Write(&rtp.Header{Version: 2, PayloadType: 102, SequenceNumber: 100, Timestamp: 9000, SSRC: ssrc, Marker: true}, payload, nil); err != nil {
		t.Fatal(err)
	}
	rtcpIn, _ = hex.DecodeString("81cd0003" + "00000001" + "00001234" + "00640000") // NACK for 100
	if _, _, err := reader.Read(make([]byte, 1500), nil); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d packets reached the network, want the packet and its retransmission", len(got))
	}
	for i, p := range got {
		if string(p.mid) != "7" || p.h.SequenceNumber != 100 || p.h.Timestamp != 9000 || !p.h.Marker ||
			p.h.PayloadType != 102 || !bytes.Equal(p.payload, payload) {
			t.Errorf("packet %d on the network: %+v MID %q payload %q", i, p.h, p.mid, p.payload)
		}
	}
	if got[1].twcc != got[0].twcc+1 {
		t.Errorf("transport-wide numbers %d then %d: the retransmission needs the next one", got[0].twcc, got[1].twcc)
	}
	if packets, b := own.sent.counts(ssrc); packets != 2 || b != 2*uint64(len(payload)) {
		t.Errorf("counted %d packets, %d bytes sent; want 2 and %d", packets, b, 2*len(payload))
	}
	if c := own.resend.counts(ssrc); c.asked != 1 || c.resent != 1 {
		t.Errorf("resender counts %+v", c)
	}
}
