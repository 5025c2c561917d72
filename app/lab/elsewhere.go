package lab

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/url"
	"strings"

	"spacetime/core/algo/all"
	"spacetime/core/scenario"
)

// ElsewherePage is the page (a route, such as "/write") whose client runs
// a view of the link, when one of its views names an algorithm that only
// another client than the lesson page's links (all.Elsewhere); "" when the
// lesson page runs them all. It reads each packed scenario's algorithm
// only, without opening it (a code= runs its lesson by a program), so that a server that links every algorithm
// can send such a link to its page before prerendering anything. A view it
// cannot read is left to the page, which says what is wrong with it.
func ElsewherePage(q url.Values) string {
	for key, values := range q {
		base, _, _ := strings.Cut(key, ".")
		if len(values) != 1 {
			continue
		}
		algorithm := ""
		switch base {
		case "sc":
			algorithm = packedAlgorithm(values[0])
		case "code":
			algorithm = scenario.ProgramAlgorithm // a lesson run by a program
		}
		if page, ok := all.Elsewhere(algorithm); ok {
			return page
		}
	}
	return ""
}

// packedAlgorithm is the algorithm a packed scenario names, or "".
func packedAlgorithm(text string) string {
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return ""
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), MaxPacked+1))
	if err != nil || len(data) > MaxPacked {
		return ""
	}
	var head struct {
		Algorithm string `json:"algorithm"`
	}
	if json.Unmarshal(data, &head) != nil {
		return ""
	}
	return head.Algorithm
}
