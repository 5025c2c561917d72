package strictjson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A refusal is in plain words however the document is wrong: a number too
// large for a float used to come back as encoding/json's "cannot unmarshal
// number 1e400 into Go struct field …"; a long number or key is quoted
// clipped, not echoed back whole (both found by FuzzDecode).
// manyKeys writes n members "k0": 0, "k1": 1, … of an object.
func manyKeys(n int) string {
	members := make([]string, n)
	for i := range members {
		members[i] = fmt.Sprintf(`"k%d": %d`, i, i)
	}
	return strings.Join(members, ", ")
}

// An object of many keys is checked for repeats in time proportional to
// its keys: a link of a hundred thousand keys costs milliseconds, not the
// ten billion comparisons of a list.
func TestDecodeManyKeys(t *testing.T) {
	var v struct {
		ByName map[string]int `json:"by_name"`
	}
	require.NoError(t, Decode([]byte(`{"by_name": {`+manyKeys(100_000)+`}}`), &v, ""))
	assert.Len(t, v.ByName, 100_000)
}

func TestDecodeRefusesInPlainWords(t *testing.T) {
	type doc struct {
		Ratio  float32        `json:"ratio"`
		Weight float64        `json:"weight"`
		Count  int            `json:"count"`
		Port   uint16         `json:"port"`
		ByName map[string]int `json:"by_name"`
		Data   []byte         `json:"data"`
	}
	long := "1" + strings.Repeat("9", 3000)
	for _, tc := range []struct{ doc, want string }{
		{`{"weight": 1e400}`, `field "weight": want a number, got the number 1e400, which is too large`},
		{`{"ratio": -1e39}`, `field "ratio": want a number, got the number -1e39, which is too large`},
		{`{"count": ` + long + `}`, `field "count": want a whole number from -9223372036854775808 to 9223372036854775807, got ` + long[:40] + `…`},
		{`{"port": -` + long + `}`, `field "port": want a whole number of 0 or more, got -` + long[:39] + `…`},
		{`{"weight": "` + long + `"}`, `field "weight": want a number, got text "` + long[:40] + `…"`},
		{`{"` + long + `": 1}`, `field "` + long[:40] + `…": unknown field (known here: by_name, count, data, port, ratio, weight)`},
		{`{"data": 0}`, `field "data": want base64 text, got the number 0`},
		{`{"data": "@@"}`, `field "data": want base64 text, got text "@@", which is not base64`},
		{`{"by_name": {"` + long + `": "x"}}`, `field "by_name.` + long[:40] + `…": want a whole number, got text "x"`},
		// encoding/json reads bytes that are not UTF-8 as U+FFFD: two such
		// keys are one key given twice
		{"{\"by_name\": {\"a\xff\": 1, \"a\xfe\": 2}}", "field \"by_name.a\uFFFD\": given twice: say it once"},
		{`{"by_name": {"a": 1, "\u0061": 2}}`, `field "by_name.a": given twice: say it once`},
		{`{"by_name": {` + manyKeys(40) + `, "k7": 2}}`, `field "by_name.k7": given twice: say it once`},
	} {
		var v doc
		err := Decode([]byte(tc.doc), &v, "")
		require.Error(t, err)
		assert.Equal(t, tc.want, err.Error())
	}
}

// Members lists an object's keys and values as they are written; a key
// repeated inside a value is the value's decoder's to judge, not its.
func TestMembers(t *testing.T) {
	var keys, values []string
	err := Members([]byte(` {"a": 1, "b\u00e9": {"x": 1, "x": [2, "}"]}, "c" : null} `), func(k string, v []byte) error {
		keys, values = append(keys, k), append(values, string(v))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "bé", "c"}, keys)
	assert.Equal(t, []string{"1", `{"x": 1, "x": [2, "}"]}`, "null"}, values)
	var fe *FieldError
	require.ErrorAs(t, Members([]byte(`[1]`), func(string, []byte) error { return nil }), &fe)
	assert.Equal(t, "want an object, got a list", fe.Problem)
	require.ErrorAs(t, Members([]byte(" "), func(string, []byte) error { return nil }), &fe)
	assert.Equal(t, "want an object, got nothing", fe.Problem)
}
