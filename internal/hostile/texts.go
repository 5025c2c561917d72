package hostile

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"

	"spacetime/app/lab"
	"spacetime/core/logimport"
)

// Canary is the markup every hostile text tries to smuggle into a page:
// an element and an attribute that no page of the site has.
const Canary = `<spacetime-canary data-canary="1">`

// Texts close every context a text could land in and open the canary
// there: both quotes, a backslash before a quote (Go's escaping of it is
// not HTML's), </title>, a script, a comment's end, a NUL, invalid UTF-8,
// character references, and 10,000 characters of quotes and brackets.
var Texts = []string{
	`x"><meta http-equiv=refresh content=0;url=https://example.org/><x y="` + Canary + `<h1>T</h1>`,
	`it's'><h1>single</h1>` + Canary + `<x y='`,
	`a\"` + Canary + `\`,
	`</title>` + Canary + `<script>alert(1)</script>`,
	`--></script></style></textarea></svg>` + Canary + `<!--`,
	"NUL\x00" + Canary,
	"bad UTF-8 \xff\xfe" + Canary,
	"&quot;&#34;&lt;" + Canary + "&",
	strings.Repeat(`"'><`, 2500) + Canary,
	// short enough for an event's mark
	`"'><x&\`,
}

// TextFields are the fields of a scenario that TextScenarios fills with
// a hostile text: every one whose words reach a page.
var TextFields = []string{"title", "description", "names", "tour say", "tour try", "mark", "log event", "log host"}

// TextScenarios are a small lesson with the text in each field that
// reaches the page, by field (TextFields): its title, its description, a
// process's name, a tour stop's words and prompt, an event's mark, and a
// log's event and host. A scenario the checks refuse is there anyway (a
// link carries it, and the page quotes it in its error); a log the
// importer refuses is not (there is no scenario to link).
func TextScenarios(text string) map[string][]byte {
	base := func() map[string]any {
		return map[string]any{
			"title":       "Two processes and a token",
			"description": "A token goes round two processes.",
			"algorithm":   "token-ring",
			"n":           2,
			"seed":        1,
			"until":       map[string]any{"steps": 12},
			"lesson": map[string]any{
				"tour":  []map[string]any{{"step": 3, "say": "The token moves.", "try": "Step on."}},
				"marks": []map[string]any{{"name": "a", "step": 2}},
			},
		}
	}
	docs := map[string][]byte{}
	set := func(field string, change func(doc, lesson map[string]any)) {
		doc := base()
		change(doc, doc["lesson"].(map[string]any))
		b, _ := json.Marshal(doc) // maps of strings and numbers
		docs[field] = b
	}
	set("title", func(d, _ map[string]any) { d["title"] = text })
	set("description", func(d, _ map[string]any) { d["description"] = text })
	set("names", func(d, _ map[string]any) { d["names"] = []string{text, "B"} })
	set("tour say", func(_, l map[string]any) {
		l["tour"] = []map[string]any{{"step": 3, "say": text, "try": "Step on."}}
	})
	set("tour try", func(_, l map[string]any) {
		l["tour"] = []map[string]any{{"step": 3, "say": "The token moves.", "try": text}}
	})
	set("mark", func(_, l map[string]any) { l["marks"] = []map[string]any{{"name": text, "step": 2}} })
	for field, log := range map[string]string{
		"log event": "alice {\"alice\":1}\n" + text + "\nbob {\"alice\":1, \"bob\":1}\nreceived\n",
		"log host":  strings.ReplaceAll("H {\"H\":1}\nsent\nbob {\"H\":1, \"bob\":1}\nreceived\n", "H", text),
	} {
		if plans, err := logimport.FromLog(log, "hostile.log"); err == nil {
			docs[field] = plans[0].Scenario().JSON()
		}
	}
	return docs
}

// TextViews are the kinds of page a linked scenario opens in.
var TextViews = []string{"run", "embed", "compare"}

// TextLink is the path of a view (one of TextViews) of a scenario with a
// hostile field: a lesson's with its tour on, a log's at its first event,
// whose caption is the hostile one; a compare view shows it beside the
// bank.
func TextLink(view, field string, doc []byte) string {
	q := lab.RawScenarioQuery(doc)
	sfx := ""
	if view == "compare" {
		sfx = ".2"
		q.Set("s", "snapshot-bank")
		q.Set("sc.2", q.Get("sc"))
		q.Del("sc")
	}
	if strings.HasPrefix(field, "log") {
		q.Set("k"+sfx, "1")
	} else {
		q.Set("tour"+sfx, "1")
	}
	if view == "embed" {
		q.Set("embed", "1")
	}
	path := "/?"
	if view == "compare" {
		path = "/compare?"
	}
	return path + lab.EncodeQuery(q)
}

// Smuggled lists the markup in a parsed page that no text of the site
// asked for: the canary's element or attribute, a meta refresh, the
// hostile texts' own element <x>, a second <h1>, a comment, an attribute
// whose name holds a quote or a bracket.
func Smuggled(doc *html.Node) []string {
	var found []string
	h1 := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.CommentNode:
			found = append(found, "a comment: "+n.Data)
		case html.ElementNode:
			switch n.Data {
			case "spacetime-canary", "x":
				found = append(found, "an element <"+n.Data+">")
			case "h1":
				if h1++; h1 > 1 {
					found = append(found, "a second <h1>")
				}
			}
			for _, a := range n.Attr {
				if a.Key == "data-canary" || a.Key == "http-equiv" || strings.ContainsAny(a.Key, `"'<>\`) {
					found = append(found, "an attribute "+a.Key+" on <"+n.Data+">")
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return found
}

// Head is a parsed page's <title> text and the contents of its
// description tags (the description and the link preview's).
func Head(doc *html.Node) (title string, descriptions []string) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "title":
				if n.FirstChild != nil {
					title = n.FirstChild.Data
				}
			case "meta":
				attrs := map[string]string{}
				for _, a := range n.Attr {
					attrs[a.Key] = a.Val
				}
				if attrs["name"] == "description" || attrs["property"] == "og:description" {
					descriptions = append(descriptions, attrs["content"])
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return title, descriptions
}
