package sim

import (
	"bytes"
	"encoding/json"

	"spacetime/core/strictjson"
)

// DecodeParams decodes an algorithm's params into p, which holds the
// defaults: fields the scenario leaves out keep them. Unknown fields and
// values of the wrong type are refused with a *strictjson.FieldError
// naming the field's path under "params" and what was expected, in plain
// words.
func DecodeParams[T any](raw json.RawMessage, p *T) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil
	}
	return strictjson.Decode(trimmed, p, "params")
}
