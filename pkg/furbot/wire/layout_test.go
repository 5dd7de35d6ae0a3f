package wire

import (
	"bufio"
	"encoding/binary"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var typeSize = map[string]int{"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "bytes3": 3, "bytes4": 4}

// wireValue reads a field of type typ at off in b as a signed integer.
func wireValue(b []byte, off int, typ string) int64 {
	switch typ {
	case "u8":
		return int64(b[off])
	case "i8":
		return int64(int8(b[off]))
	case "u16":
		return int64(binary.BigEndian.Uint16(b[off:]))
	case "i16":
		return int64(int16(binary.BigEndian.Uint16(b[off:])))
	case "u32":
		return int64(binary.BigEndian.Uint32(b[off:]))
	case "i32":
		return int64(int32(binary.BigEndian.Uint32(b[off:])))
	}
	panic("wireValue: type " + typ)
}

// jsonField returns the integer value of the struct field whose JSON name
// is name.
func jsonField(t *testing.T, v reflect.Value, name string) int64 {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		if strings.Split(v.Type().Field(i).Tag.Get("json"), ",")[0] == name {
			f := v.Field(i)
			if f.CanInt() {
				return f.Int()
			}
			return int64(f.Uint())
		}
	}
	t.Fatalf("%s has no field with JSON name %q", v.Type(), name)
	return 0
}

func fieldsOf(block string) []Field {
	var out []Field
	for _, f := range Layout {
		if f.Block == block {
			out = append(out, f)
		}
	}
	return out
}

// blockValue returns the decoded struct of block id in s.
func blockValue(s *Status, id BlockID) reflect.Value {
	v := reflect.ValueOf(s).Elem()
	switch {
	case id >= BlockSuspRL && id <= BlockSuspFR:
		return v.FieldByName("Suspension").Index(int(id - BlockSuspRL))
	case id >= BlockRearFork:
		return v.FieldByName("Forks").Index(int(id - BlockRearFork))
	}
	return v.FieldByName(map[BlockID]string{BlockComm: "Comm", BlockBMS: "BMS", BlockMotion: "Motion",
		BlockTraction: "Traction", BlockSteering: "Steering", BlockHydraulics: "Hydraulics"}[id])
}

// TestLayoutMatchesCodec fills each block's data with distinct bytes,
// decodes it, and checks every field of Layout against the decoded struct;
// then checks the encoder reproduces the bytes and that the fields tile
// the block exactly.
func TestLayoutMatchesCodec(t *testing.T) {
	for id := BlockID(0); id < NumBlocks; id++ {
		fields := fieldsOf(layoutBlock(id))
		n := id.Len()
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(0x81 + 7*i + int(id)) // distinct, high bits set to catch sign errors
		}
		frame := append([]byte{0x41, 0x54, 0x53, 0x46, 0, 0, 0, 1, 1, 0, 0, 0, byte(id), byte(n)}, data...)
		var s Status
		if err := DecodeStatus(frame, &s); err != nil {
			t.Fatalf("%v: %v", id, err)
		}
		bv := blockValue(&s, id)
		next := 0
		for _, f := range fields {
			if f.Offset != next {
				t.Errorf("%v.%s: offset %d, previous field ends at %d", id, f.Name, f.Offset, next)
			}
			next = f.Offset + typeSize[f.Type]
			if got, want := jsonField(t, bv, f.Name), wireValue(data, f.Offset, f.Type); got != want {
				t.Errorf("%v.%s: decoded %d, table says %d at offset %d (%s)", id, f.Name, got, want, f.Offset, f.Type)
			}
		}
		if next != n {
			t.Errorf("%v: fields end at %d, block length %d", id, next, n)
		}
		if bv.NumField() != len(fields) {
			t.Errorf("%v: struct has %d fields, table %d", id, bv.NumField(), len(fields))
		}
		if enc := AppendStatus(nil, &s); string(enc[14:]) != string(data) {
			t.Errorf("%v: encode % x, want % x", id, enc[14:], data)
		}
	}
}

func TestLayoutMatchesControlCodec(t *testing.T) {
	c := Control{Seq: 0x01020304, Timestamp: 0x05060708, Steer: -1234, Throttle: 567, Brake: 890, Flags: FlagEnable | FlagReverse}
	raw := AppendControl(nil, &c)
	next := 0
	for _, f := range fieldsOf("control") {
		if f.Offset != next {
			t.Errorf("control.%s: offset %d, previous field ends at %d", f.Name, f.Offset, next)
		}
		next = f.Offset + typeSize[f.Type]
		switch f.Name {
		case "magic":
			if string(raw[f.Offset:next]) != string(ControlMagic[:]) {
				t.Errorf("magic at %d: % x", f.Offset, raw[f.Offset:next])
			}
		case "reserved":
			if raw[f.Offset] != 0 {
				t.Errorf("reserved byte %#x", raw[f.Offset])
			}
		default:
			if got, want := wireValue(raw, f.Offset, f.Type), jsonField(t, reflect.ValueOf(c), f.Name); got != want {
				t.Errorf("control.%s: wire %d at %d, struct %d", f.Name, got, f.Offset, want)
			}
		}
	}
	if next != ControlSize {
		t.Errorf("control fields end at %d, ControlSize %d", next, ControlSize)
	}
}

// TestScalesMatchLayout ties the conversion constants to the table.
func TestScalesMatchLayout(t *testing.T) {
	const deg = AngleScale / 0.01 // rad per degree
	want := map[string]float64{
		"traction.speed": SpeedScale, "traction.wheel_left": WheelScale, "traction.wheel_right": WheelScale,
		"traction.throttle": PedalScale * 100, "traction.brake": PedalScale * 100, "traction.odometer": OdometerScale,
		"steering.angle": AngleScale / deg, "steering.target": AngleScale / deg, "control.steer": AngleScale / deg,
		"control.throttle": PedalScale * 100, "control.brake": PedalScale * 100,
		"bms.current": CurrentScale, "bms.voltage": VoltageScale, "hydraulics.pressure": PressureScale,
		"suspension.height": LengthScale, "fork.lift": LengthScale, "fork.tilt": AngleScale / deg,
	}
	for _, f := range Layout {
		w, ok := want[f.Block+"."+f.Name]
		if !ok {
			continue
		}
		got, err := strconv.ParseFloat(f.Scale, 64)
		if err != nil || abs(got-w) > 1e-12*w {
			t.Errorf("%s.%s: table scale %q, constant %g", f.Block, f.Name, f.Scale, w)
		}
		delete(want, f.Block+"."+f.Name)
	}
	for k := range want {
		t.Errorf("%s: not in Layout", k)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestLayoutMatchesDoc reads the field tables of docs/protocols/furbot.md
// and requires exactly the rows of Layout.
func TestLayoutMatchesDoc(t *testing.T) {
	f, err := os.Open("../../../docs/protocols/furbot.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	heading := regexp.MustCompile("^#{2,4} .*`([a-z_]+)`")
	row := regexp.MustCompile(`^\|\s*(\d+)\s*\|\s*([a-z_0-9]+)\s*\|\s*([a-z0-9]+)\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|\s*(known|assumed)\s*\|`)
	var doc []Field
	block := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			block = m[1]
			continue
		}
		if m := row.FindStringSubmatch(line); m != nil {
			off, _ := strconv.Atoi(m[1])
			doc = append(doc, Field{Block: block, Name: m[2], Offset: off, Type: m[3], Scale: m[4], Unit: m[5], Known: m[6] == "known"})
		}
	}
	if len(doc) != len(Layout) {
		t.Errorf("doc has %d field rows, Layout %d", len(doc), len(Layout))
	}
	for i := 0; i < len(doc) && i < len(Layout); i++ {
		if doc[i] != Layout[i] {
			t.Errorf("row %d:\n doc    %+v\n Layout %+v", i, doc[i], Layout[i])
		}
	}
}
