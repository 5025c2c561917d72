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

// CheckTicks refuses a duration param t outside 1 to most ticks with a
// *strictjson.FieldError naming field ("params.timeout").
func CheckTicks(field string, t, most Time) error {
	if t < 1 || t > most {
		return strictjson.FieldErrorf(field, "want ticks from 1 to %d, got %d", most, t)
	}
	return nil
}
