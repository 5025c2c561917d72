package strictjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"spacetime/core/algo/all"
	"spacetime/core/sim"
	"spacetime/core/strictjson"
	"spacetime/internal/fuzzcheck"
)

// fuzzDoc has a field of every kind Decode walks: whole numbers of
// each size, unsigned ones, floats, text, flags, pointers, arrays, lists,
// maps, nested and embedded structs, raw JSON, an interface, base64 bytes
// and a text unmarshaler.
type fuzzDoc struct {
	Name   string           `json:"name"`
	Small  int8             `json:"small"`
	Count  int              `json:"count,omitempty"`
	Big    uint64           `json:"big"`
	Port   uint16           `json:"port"`
	Ratio  float32          `json:"ratio"`
	Weight float64          `json:"weight"`
	On     *bool            `json:"on"`
	At     sim.Time         `json:"at"`
	Pair   [2]int           `json:"pair"`
	List   []int64          `json:"list"`
	Nested []fuzzInner      `json:"nested"`
	ByName map[string]uint8 `json:"by_name"`
	Raw    json.RawMessage  `json:"raw,omitempty"`
	Any    any              `json:"any"`
	Bytes  []byte           `json:"bytes"`
	Colour fuzzColour       `json:"colour"`
	Skip   int              `json:"-"`
	fuzzEmbedded
}

type fuzzInner struct {
	ID    sim.NodeID `json:"id"`
	Label *string    `json:"label"`
	Deep  *fuzzInner `json:"deep,omitempty"`
}

type fuzzEmbedded struct {
	Extra int32 `json:"extra"`
}

// fuzzColour is text read by its own UnmarshalText.
type fuzzColour string

func (c fuzzColour) MarshalText() ([]byte, error) { return []byte(c), nil }

func (c *fuzzColour) UnmarshalText(b []byte) error {
	switch string(b) {
	case "", "red", "blue":
		*c = fuzzColour(b)
		return nil
	}
	return errors.New("want red or blue")
}

// FuzzDecode checks strictjson.Decode and sim.DecodeParams, which read
// scenario files and every algorithm's params. into picks the target: a
// document with a field of every kind (at the root "" or "params"), or a
// registered algorithm's params through its Spec.New for n processes.
//
//   - Nothing panics.
//   - Decode accepts exactly what encoding/json accepts strictly (no
//     unknown fields, one value, every value of its field's type) with
//     every key spelt as its field is and no key twice in an object.
//   - A refusal is a *strictjson.FieldError whose path starts at the root, in plain
//     words (no "json:" prefix, no Go type or package names that the
//     document does not contain) and at most maxDecodeError bytes long
//     whatever the document's size.
//   - What is accepted encodes and decodes again to the same value.
//   - An algorithm's refusal of its params is in plain words too.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, into uint8) {
		defer fuzzcheck.Watchdog(string(data))()
		specs := all.Specs()
		if into%2 == 1 && len(specs) > 0 {
			spec := specs[int(into/2)%len(specs)]
			n := min(max(int(into>>5)+1, spec.MinN, 1), max(spec.MaxN, 1), 64)
			_, err := spec.New(spec.Names(n), data)
			if err != nil {
				fuzzcheck.PlainError(t, err.Error(), string(data), maxDecodeError)
			}
			return
		}
		root := ""
		decode := func(data []byte, v *fuzzDoc) error { return strictjson.Decode(data, v, "") }
		if into%4 == 2 {
			root = "params"
			decode = func(data []byte, v *fuzzDoc) error { return sim.DecodeParams(data, v) }
		}
		var got fuzzDoc
		err := decode(data, &got)
		strictOK := strictlyValid(data)
		if root == "params" {
			if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || string(trimmed) == "null" {
				strictOK = true // no params: the defaults stand
			}
		}
		if (err == nil) != strictOK {
			t.Fatalf("Decode says %v, encoding/json strictly says ok=%v, for %q", err, strictOK, data)
		}
		if err != nil {
			var fe *strictjson.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("the refusal is a %T, not a *strictjson.FieldError: %v", err, err)
			}
			if !strings.HasPrefix(fe.Path, root) {
				t.Fatalf("the path %q does not start at the root %q", fe.Path, root)
			}
			fuzzcheck.PlainError(t, err.Error(), string(data), maxDecodeError)
			return
		}
		out, err := json.Marshal(&got)
		if err != nil {
			t.Fatalf("what was accepted does not encode: %v", err)
		}
		var again fuzzDoc
		if err := strictjson.Decode(out, &again, root); err != nil {
			t.Fatalf("what was accepted, encoded, is refused: %v\n%s", err, out)
		}
		if out2, _ := json.Marshal(&again); !bytes.Equal(out, out2) {
			t.Fatalf("decoding is not stable:\nfirst  %s\nsecond %s", out, out2)
		}
	})
}

// strictlyValid reports whether encoding/json decodes data into a fuzzDoc
// refusing unknown fields, as exactly one JSON value, and every key in it
// is spelt as its field is and given once.
func strictlyValid(data []byte) bool {
	trimmed := bytes.TrimPrefix(bytes.TrimSpace(data), []byte("\uFEFF"))
	trimmed = bytes.TrimSpace(trimmed)
	if len(trimmed) == 0 {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	var v fuzzDoc
	if dec.Decode(&v) != nil || dec.InputOffset() != int64(len(trimmed)) {
		return false
	}
	return keysAsSpelt(json.NewDecoder(bytes.NewReader(trimmed)), docKeys)
}

// The keys of fuzzDoc's objects, by where they are: nil for an object
// whose keys are free (a map, raw JSON), each given once all the same.
var (
	innerKeys = map[string]any{"id": nil, "label": nil}
	docKeys   = map[string]any{
		"name": nil, "small": nil, "count": nil, "big": nil, "port": nil, "ratio": nil, "weight": nil, "on": nil,
		"at": nil, "pair": nil, "list": nil, "nested": innerKeys, "by_name": nil, "raw": nil, "any": nil,
		"bytes": nil, "colour": nil, "extra": nil,
	}
)

func init() { innerKeys["deep"] = innerKeys }

// keysAsSpelt reads one value and reports whether its objects' keys are
// each given once and, where keys names them, spelt exactly as there
// (objects in lists take the list's keys).
func keysAsSpelt(dec *json.Decoder, keys map[string]any) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('['):
		for dec.More() {
			if !keysAsSpelt(dec, keys) {
				return false
			}
		}
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			key, _ := tok.(string)
			if err != nil || seen[key] {
				return false
			}
			seen[key] = true
			var inner map[string]any
			if keys != nil {
				sub, ok := keys[key]
				if !ok {
					return false
				}
				inner, _ = sub.(map[string]any)
			}
			if !keysAsSpelt(dec, inner) {
				return false
			}
		}
	default:
		return true
	}
	_, err = dec.Token()
	return err == nil
}

// maxDecodeError bounds a refusal's length: it quotes at most a few short
// pieces of the document and lists the fields known where it failed.
const maxDecodeError = 1000
