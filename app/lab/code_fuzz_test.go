package lab

import (
	"net/url"
	"strings"
	"testing"

	"spacetime/core/algo/python/ports"
	"spacetime/internal/fuzzcheck"
)

// FuzzCodeLink opens a lesson with any text as its program (code=): the
// link opens, or is refused in plain words that name the parameter or
// the scenario's field (a program that does not compile names its line;
// one that does not take the lesson's commands is refused where the
// script gives them); it never panics, and it ends
// within the watchdog's time (a program's calls are bounded in steps and
// what they make). A link that opens writes itself again.
func FuzzCodeLink(f *testing.F) {
	for _, id := range ports.Algorithms() {
		code, _ := ports.For(id)
		f.Add(code)
	}
	f.Add("def init(p):\n    while True:\n        pass\n")
	f.Add("def init(p):\n    p.state['s'] = 'x' * 1000000000\n")
	f.Add("def on_message(p, m):\n    p.send(m.sender, m.kind)\n")
	f.Fuzz(func(t *testing.T, code string) {
		defer fuzzcheck.Watchdog(code)()
		q := url.Values{"v": {URLVersion}, "s": {"token-ring-idle"}, "code": {pack([]byte(code))}}
		p, err := PageFromQuery(q, false)
		if err != nil {
			if !strings.HasPrefix(err.Error(), `link parameter "`) && !strings.HasPrefix(err.Error(), "scenario: ") {
				t.Fatalf("a refusal that names neither the link's parameter nor the scenario's field: %v", err)
			}
			fuzzcheck.PlainError(t, err.Error(), code, maxLinkError)
			return
		}
		again, err := PageFromQuery(p.Query(), false)
		if err != nil {
			t.Fatalf("the page's own link does not open: %v", err)
		}
		if a, b := EncodeQuery(p.Query()), EncodeQuery(again.Query()); a != b {
			t.Fatalf("the page's own link opens another page:\n%s\n%s", a, b)
		}
	})
}
