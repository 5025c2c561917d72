package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// attrText is a text that was not written here (a scenario's or a log's,
// a link's, an algorithm's) made safe as an attribute's value: a tooltip,
// an aria-label, an input's value, an element id.
//
// In the browser the page sets attributes through the DOM, which takes any
// text as text. The server's page is another matter: go-app writes its
// attribute values with strconv.Quote, which escapes for Go, not for HTML,
// so a '"' in the text would close the attribute and the rest become
// markup (a meta refresh, an element). On the server attrText therefore
// writes '&', '"', '<', '>', '\” and every character Quote would change
// (a backslash, a control character) as character references, which Quote
// leaves alone and the browser reads back as the text itself.
func attrText(s string) string {
	if !app.IsServer {
		return s
	}
	return quoteProof(s)
}

// quoteProof writes s so that strconv.Quote changes nothing in it and an
// HTML parser reads the quoted result back as s, as an attribute's value:
// invalid UTF-8 becomes U+FFFD and NUL, which HTML cannot carry, U+FFFD.
func quoteProof(s string) string {
	safe := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' || c >= utf8.RuneSelf || c == '"' || c == '&' || c == '\\' || c == '<' || c == '>' || c == '\'' || c == 0x7f {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&#34;")
		case r == '\'':
			b.WriteString("&#39;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\\':
			b.WriteString("&#92;")
		case r == 0:
			b.WriteString("&#xFFFD;")
		case r >= 0x80 && r <= 0x9f:
			// HTML reads a reference to a C1 control as a Windows-1252
			// character (&#x80; is €): a control shows as nothing anyway
			b.WriteString("&#xFFFD;")
		case !strconv.IsPrint(r):
			b.WriteString("&#x")
			b.WriteString(strconv.FormatInt(int64(r), 16))
			b.WriteByte(';')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
