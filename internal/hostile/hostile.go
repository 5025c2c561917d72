// Package hostile holds links and scenario files that ask a server, a
// page or the command line for more than they should give: a million
// steps whose messages pile up, steps that send a thousand messages, a
// checkpoint every step, six views of a long run zoomed out, times at the
// end of the clock. The server's tests and its load test send them; each
// must get a bounded answer.
package hostile

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"spacetime/app/lab"
	"spacetime/core/scenario"
)

// Link is one hostile link.
type Link struct {
	// Name says what it asks for.
	Name string
	// Path is the link's path and query ("/?v=2&sc=…").
	Path string
	// Refused says the server refuses what it asks for (the page then
	// says why) rather than running it.
	Refused bool
}

// Scenarios are the hostile scenario files, by name.
var Scenarios = map[string]string{
	"messages pile up for a crashed process": `{"algorithm": "lamport-clock", "n": 2, "seed": 1, "workload": {"every": [1, 1]},
		"script": [{"at": 1, "fault": "crash", "node": 2}], "until": {"steps": 1000000}}`,
	"a thousand WORK a task, a thousand deep": `{"algorithm": "idle-poll", "n": 2, "seed": 1,
		"params": {"fanout": 1000, "depth": 1000}, "until": {"steps": 1000000}}`,
	"WORK a thousand deep": `{"algorithm": "idle-poll", "n": 2, "seed": 1, "params": {"depth": 1000}, "until": {"steps": 1000000}}`,
	"credit split a thousand ways, sixteen processes": `{"algorithm": "credit-recovery", "n": 16, "seed": 1,
		"params": {"fanout": 1000, "depth": 1000, "work": 1}, "until": {"steps": 1000000}}`,
	"a million steps of two branches": `{"algorithm": "chandy-lamport", "n": 2, "seed": 1, "workload": {"p": 0.5}, "until": {"steps": 999999}}`,
	"a million steps of 64 branches": `{"algorithm": "chandy-lamport", "n": 64, "seed": 1, "scheduler": "random", "workload": {"p": 0.5},
		"script": [{"at": 40, "node": 1, "command": "snapshot"}], "until": {"steps": 1000000}}`,
	"5,000 crashes and recoveries after tick 230,000": crashes(),
}

// crashes is a checkpointing run whose second process crashes and
// recovers 5,000 times, late in a long run.
func crashes() string {
	var script []string
	for i := range 5000 {
		at := 230_000 + 10*i
		script = append(script, fmt.Sprintf(`{"at": %d, "fault": "crash", "node": 2}, {"at": %d, "fault": "recover", "node": 2}`, at, at+5))
	}
	return `{"algorithm": "checkpoint", "n": 2, "seed": 1, "script": [` + strings.Join(script, ", ") + `], "until": {"steps": 1000000}}`
}

// Refused are scenario files the server refuses to run, by name.
var Refused = map[string]string{
	"times at the end of the clock": `{"algorithm": "chandy-lamport", "n": 2, "seed": 1, "network": {"delay": [1000000, 1000000]},
		"script": [{"at": 9223372036854775000, "node": 1, "command": "snapshot"},
		{"at": 9223372036854775000, "fault": "pause", "node": 2, "for": 1000000}], "until": {"steps": 1000}}`,
}

// Links are every hostile link: each scenario above packed into a link,
// six views of the long lesson zoomed out, and absurd zooms and inputs.
func Links() ([]Link, error) {
	var links []Link
	for _, set := range []struct {
		docs    map[string]string
		refused bool
	}{{Scenarios, false}, {Refused, true}} {
		for _, name := range slices.Sorted(maps.Keys(set.docs)) {
			doc := set.docs[name]
			s, err := scenario.Parse([]byte(doc))
			if set.refused {
				// a refused file cannot be parsed: pack its text as the
				// page would pack a scenario, to send it anyway
				if err == nil {
					return nil, fmt.Errorf("%s: the scenario is accepted, not refused", name)
				}
				links = append(links, Link{Name: name, Path: "/?" + lab.EncodeQuery(lab.RawScenarioQuery([]byte(doc))), Refused: true})
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			links = append(links, Link{Name: name, Path: "/?" + lab.EncodeQuery(lab.ScenarioQuery(s))})
		}
	}
	six := url.Values{"v": {lab.URLVersion}}
	for i := range lab.MaxViews {
		sfx := ""
		if i > 0 {
			sfx = fmt.Sprintf(".%d", i+1)
		}
		six.Set("s"+sfx, "snapshot-long")
		six.Set("k"+sfx, "100000")
		six.Set("span"+sfx, "1000000")
	}
	inputs := strings.TrimSuffix(strings.Repeat("1d0,", lab.MaxInputs), ",")
	links = append(links,
		Link{Name: "six views of the long lesson, zoomed out", Path: "/compare?" + lab.EncodeQuery(six) + "&steps=apart"},
		Link{Name: "a window at 1e308", Path: "/?at=1e308", Refused: true},
		Link{Name: "a window of 1e308 ticks", Path: "/?at=-1e18&span=1e308", Refused: true},
		Link{Name: fmt.Sprintf("%d inputs", lab.MaxInputs), Path: "/?s=snapshot-bank&in=" + inputs},
	)
	return links, nil
}
