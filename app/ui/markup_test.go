package ui

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"golang.org/x/net/html"

	"spacetime/app/lab"
	"spacetime/internal/hostile"
)

// pageHandler renders the page as the server does, through go-app's
// handler, without the server's bounds.
var pageHandler = sync.OnceValue(func() *app.Handler {
	Routes()
	return &app.Handler{Name: "Spacetime", Title: "Spacetime", Description: "The site's description."}
})

// serverPage is the page the server sends for a link: opened, prepared,
// rendered by go-app and named (Prepare's finish), then parsed.
func serverPage(t *testing.T, path string) *html.Node {
	base, raw, _ := strings.Cut(path, "?")
	q, err := url.ParseQuery(raw)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	page, err := lab.PageFromQuery(q, base == "/compare")
	token, finish := Prepare(Prepared{Page: page, Err: err})
	rec := httptest.NewRecorder()
	pageHandler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path+"&"+PreparedParam+"="+token, nil))
	doc, err := html.Parse(strings.NewReader(string(finish(rec.Body.Bytes()))))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// FuzzPageText opens a lesson whose title, description, tour or log
// holds any text, and the Write view on a program that holds it,
// followed by the canary, and finds no markup in the server's page but
// the page's own.
func FuzzPageText(f *testing.F) {
	for _, text := range hostile.Texts {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		text += hostile.Canary
		docs := hostile.TextScenarios(text)
		for _, field := range []string{"title", "description", "tour say", "log event"} {
			doc, ok := docs[field]
			if !ok {
				continue
			}
			if found := hostile.Smuggled(serverPage(t, hostile.TextLink("run", field, doc))); len(found) > 0 {
				t.Fatalf("%s %q: %v", field, text, found)
			}
		}
		// a learner's program, which the Write view's page holds as text
		code := "# " + strings.ReplaceAll(text, "\n", " ") + "\ndef init(p):\n    p.say('hello')\n"
		doc, err := json.Marshal(map[string]any{"algorithm": "python", "code": code, "n": 2, "seed": 1, "until": map[string]any{"steps": 3}})
		if err != nil {
			t.Fatal(err)
		}
		if found := hostile.Smuggled(serverPage(t, WritePath+"?"+lab.EncodeQuery(lab.RawScenarioQuery(doc)))); len(found) > 0 {
			t.Fatalf("program %q: %v", text, found)
		}
	})
}
