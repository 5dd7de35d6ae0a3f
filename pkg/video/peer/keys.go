package peer

import (
	"bytes"
	"encoding/json"
)

// keySchema lists, for each object of a signalling message, the exact
// field names allowed; a field naming a nested schema holds an object.
var keySchema = map[string][]string{
	"":          {"type", "sdp", "candidate", "cameras", "chosen", "camera", "caps", "error"},
	"candidate": {"candidate", "sdpMid", "sdpMLineIndex", "usernameFragment"},
	"caps":      {"maxBitrate", "frameRate", "width", "height"},
	"error":     {"code", "message", "camera"},
}

// checkKeys refuses field names that differ from the schema only in case
// (encoding/json would accept them) and repeated fields (encoding/json
// keeps the last).
func checkKeys(raw []byte) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return badf(CodeBadMessage, "json: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return badf(CodeBadMessage, "not a JSON object")
	}
	return checkObject(dec, "")
}

// checkObject reads the rest of an object whose '{' was read.
func checkObject(dec *json.Decoder, schema string) error {
	seen := make(map[string]bool, 4)
	for {
		tok, err := dec.Token()
		if err != nil {
			return badf(CodeBadMessage, "json: %v", err)
		}
		if d, ok := tok.(json.Delim); ok && d == '}' {
			return nil
		}
		key, _ := tok.(string)
		if !contains(keySchema[schema], key) {
			return badf(CodeBadMessage, "unknown field %q", key)
		}
		if seen[key] {
			return badf(CodeBadMessage, "field %q repeated", key)
		}
		seen[key] = true
		tok, err = dec.Token()
		if err != nil {
			return badf(CodeBadMessage, "json: %v", err)
		}
		d, isDelim := tok.(json.Delim)
		if !isDelim {
			continue
		}
		if _, nested := keySchema[key]; nested && schema == "" && d == '{' {
			if err := checkObject(dec, key); err != nil {
				return err
			}
			continue
		}
		if err := skipValue(dec); err != nil { // an array, or an object where none belongs (refused later)
			return err
		}
	}
}

// skipValue reads up to the end of the array or object whose opening
// delimiter was read.
func skipValue(dec *json.Decoder) error {
	for depth := 1; depth > 0; {
		tok, err := dec.Token()
		if err != nil {
			return badf(CodeBadMessage, "json: %v", err)
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}
