package lab

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/algo/python/ports"
	"spacetime/core/faults"
	"spacetime/core/scenario"
)

// linkedPages are pages whose links, together, write every row of
// linkParams: three panes stepped together (a lesson with every pane
// parameter set, a packed scenario, a plain lesson) with the page's looks,
// and two stepped apart.
func linkedPages(t *testing.T) []*Page {
	t.Helper()
	lesson := func(id string) *Session {
		s, err := scenario.Builtin(id)
		require.NoError(t, err)
		sess, err := Open(s)
		require.NoError(t, err)
		return sess
	}
	full := lesson("snapshot-nonfifo")
	require.NotEmpty(t, full.Tour().Stops())
	require.NoError(t, full.Switches().SetFIFO(true))
	full.Seek(10)
	require.NoError(t, full.Fault("crash", faults.AtProcess(1)))
	require.NoError(t, full.Tour().GoTo(1))
	full.Seek(30)
	full.Axis, full.Stamps = diagram.AxisLamport, diagram.StampsVector
	full.View = View{Span: 50, Pinned: true, Start: 5}
	require.NoError(t, full.Quiz().Start([]int{40}))
	require.Equal(t, 30, full.Step())
	full.Causality().Select(20)
	full.Causality().Compare(12)
	full.Cut().Toggle()
	full.Cut().Place(0, 12.5)
	full.Filter().Set(1, 3, false)
	own, err := scenario.Parse([]byte(`{"algorithm": "chandy-lamport", "n": 3, "until": {"steps": 30}}`))
	require.NoError(t, err)
	packed, err := Open(own)
	require.NoError(t, err)
	packed.Seek(7)

	together := OpenPage(full, packed, lesson("snapshot-bank"))
	together.Window = View{Span: 80, Pinned: true, Start: 3}
	together.Text, together.Theme, together.Origin, together.Embed = "L", "dark", "https://slides.example.org", true
	ring, err := scenario.Builtin("token-ring-crash")
	require.NoError(t, err)
	port, ok := ports.For("token-ring")
	require.True(t, ok)
	coded, err := Open(ring.WithProgram(scenario.ProgramAlgorithm, port))
	require.NoError(t, err)
	apart := OpenPage(lesson("token-ring-crash"), coded, lesson("snapshot-bank"))
	apart.Together = false
	return []*Page{together, apart}
}

// writtenBy is, for each row, the first page of pages whose link writes
// it and the key it writes it under (its own name, or the second pane's).
func writtenBy(pages []*Page) map[string]url.Values {
	out := map[string]url.Values{}
	for _, p := range pages {
		q := p.Query()
		for _, row := range linkParams {
			for _, key := range []string{row.name, row.name + ".2"} {
				if q.Has(key) && out[key] == nil {
					out[key] = q
				}
			}
		}
	}
	return out
}

// Every row is written by some page above, and what a page writes reads
// back to the same page: each row writes the same text for it (the value
// through the table), and the fields a link sets are equal.
func TestEveryLinkParameterRoundTrips(t *testing.T) {
	pages := linkedPages(t)
	written := writtenBy(pages)
	for _, row := range linkParams {
		assert.True(t, written[row.name] != nil || written[row.name+".2"] != nil, "no page above writes %q: add one that does", row.name)
	}
	for _, p := range pages {
		q := p.Query()
		again, err := PageFromQuery(q, false)
		require.NoError(t, err, EncodeQuery(q))
		assert.Equal(t, EncodeQuery(q), EncodeQuery(again.Query()))
		for _, row := range linkParams {
			if !row.pane {
				assert.Equal(t, row.write(p, nil), row.write(again, nil), row.name)
				continue
			}
			require.Len(t, again.Views, len(p.Views))
			for i, s := range p.Views {
				assert.Equal(t, row.write(p, s), row.write(again, again.Views[i]), row.name+suffix(i))
			}
		}
		assert.Equal(t, []any{p.Together, p.Embed, p.Text, p.Theme, p.Origin}, []any{again.Together, again.Embed, again.Text, again.Theme, again.Origin})
		if p.Together {
			assert.Equal(t, p.Window, again.Window)
		}
		for i, s := range p.Views {
			a := again.Views[i]
			assert.Equal(t, s.scn.JSON(), a.scn.JSON())
			assert.Equal(t, s.run.Inputs(), a.run.Inputs())
			assert.Equal(t, []any{s.step, s.Axis, s.View, s.Causality().Selected(), s.Causality().Other(), s.Stamps, s.Cut().On(), s.tour.stop, s.Quiz().Steps()},
				[]any{a.step, a.Axis, a.View, a.Causality().Selected(), a.Causality().Other(), a.Stamps, a.Cut().On(), a.tour.stop, a.Quiz().Steps()})
			assert.Equal(t, encodeCut(s.Cut().Points()), encodeCut(a.Cut().Points()), "NaN is no point, and equals none")
			assert.Equal(t, s.Filter().Hidden(), a.Filter().Hidden())
		}
	}
}

// Every row is refused given twice, a pane's row for a pane the link does
// not name, with the parameter named.
func TestEveryLinkParameterIsRefusedTwiceOrForNoPane(t *testing.T) {
	written := writtenBy(linkedPages(t))
	for _, row := range linkParams {
		key := row.name
		if written[key] == nil {
			key += ".2"
		}
		twice := cloneQuery(written[key])
		twice[key] = []string{twice.Get(key), twice.Get(key)}
		_, err := PageFromQuery(twice, false)
		require.Error(t, err, key)
		assert.Equal(t, fmt.Sprintf("link parameter %q is given 2 times: give it once", key), err.Error())
		if !row.pane {
			continue
		}
		noPane := cloneQuery(written[key])
		noPane.Set(row.name+".5", written[key].Get(key))
		_, err = PageFromQuery(noPane, false)
		require.Error(t, err, key)
		assert.Equal(t, fmt.Sprintf("link parameter %q: the link names no view 4 (no \"s.4\" or \"sc.4\")", row.name+".5"), err.Error())
	}
}

// outOfBounds is, for each row, a value it refuses, what else the link
// must say for it to be read, and the words of the refusal after the
// parameter's name.
var outOfBounds = map[string]struct {
	value string
	with  url.Values
	want  string
}{
	"v":           {value: "3", want: `this link uses format "3"; this Spacetime reads formats 1 and 2`},
	"embed":       {value: "true", want: `want 1 (the page without its header and panels, for a slide) or 0, got "true"`},
	"s":           {value: "no-such-lesson", want: `no-such-lesson`},
	"sc":          {value: "!", want: `not a packed scenario (it is not base64url text)`},
	"code":        {value: "!", want: `not a packed program (it is not base64url text)`},
	"fifo":        {value: "2", want: `want 0 or 1 (FIFO channels off or on), got "2"`},
	"in":          {value: "x", want: `"x" is not an input (want a step then a letter, such as 12d5)`},
	"axis":        {value: "space", want: `want time or lamport, got "space"`},
	"span":        {value: "1", want: `want a zoom from 4 to 1000000, got "1"`},
	"at":          {value: "1e10", want: `want a point of the axis from -1e+09 to 1e+09, got "1e10"`},
	"k":           {value: "-1", want: `want a step number, got "-1"`},
	"sel":         {value: "9", with: url.Values{"k": {"5"}}, want: `want an event on screen, a step from 0 to 4, got "9"`},
	"sel2":        {value: "9", with: url.Values{"k": {"5"}, "sel": {"3"}}, want: `want an event on screen, a step from 0 to 4, got "9"`},
	"stamps":      {value: "both", want: `want lamport or vector, got "both"`},
	"cut":         {value: "1,2", want: `want 3 points, one per process, got 2`},
	"hide":        {value: "1,4", want: `want process numbers from 1 to 3, such as 3,5, got "4"`},
	"tour":        {value: "99", want: `want a stop of the lesson's tour, from 1 to`},
	"quiz":        {value: "0", want: `want 1, or steps from 1 separated by commas, got "0"`},
	"steps":       {value: "sideways", want: `want together or apart, got "sideways"`},
	"span.shared": {value: "1e9", want: `want a zoom from 4 to 1000000, got "1e9"`},
	"at.shared":   {value: "x", want: `want a point of the axis from -1e+09 to 1e+09, got "x"`},
	"text":        {value: "XXL", want: `want one of S, M, L, XL, got "XXL"`},
	"theme":       {value: "pink", want: `want one of light, dark, colour-blind, got "pink"`},
	"origin":      {value: "javascript:alert(1)", want: `want the slides' origin`},
}

// Every row refuses a value out of its bounds, naming itself, on the
// first pane and on the second for a pane's row.
func TestEveryLinkParameterIsBounded(t *testing.T) {
	for _, row := range linkParams {
		c, ok := outOfBounds[row.name]
		require.True(t, ok, "no value out of %q's bounds is tried: add one to outOfBounds", row.name)
		suffixes := []string{""}
		if row.pane {
			suffixes = append(suffixes, ".2")
		}
		for _, sfx := range suffixes {
			q := url.Values{"v": {"2"}, "s": {"snapshot-nonfifo"}, "s.2": {"snapshot-nonfifo"}}
			if row.name == "sc" {
				q.Del("s" + sfx) // a pane names its scenario once
			}
			for k, v := range c.with {
				q[k+sfx] = v
			}
			q.Set(row.name+sfx, c.value)
			_, err := PageFromQuery(q, false)
			require.Error(t, err, "%s=%s", row.name+sfx, c.value)
			assert.True(t, strings.HasPrefix(err.Error(), fmt.Sprintf("link parameter %q: ", row.name+sfx)), err.Error())
			assert.Contains(t, err.Error(), c.want)
		}
	}
}

// The page's link holds the view on screen: a selection past the step
// (kept for when the run comes back to it) is not written, for the link
// reads only events on screen and used to refuse the page's own link.
func TestASelectionPastTheStepIsNotLinked(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	sess, err := Open(s)
	require.NoError(t, err)
	sess.Seek(30)
	sess.Causality().Select(20)
	sess.Causality().Compare(25)
	sess.Seek(22)
	assert.Equal(t, "k=22&s=snapshot-bank&sel=20&v=2", EncodeQuery(sess.Query()))
	sess.Seek(13)
	assert.Equal(t, "k=13&s=snapshot-bank&v=2", EncodeQuery(sess.Query()))
	_, err = FromQuery(sess.Query())
	require.NoError(t, err)
	sess.Seek(30)
	assert.Equal(t, "k=30&s=snapshot-bank&sel=20&sel2=25&v=2", EncodeQuery(sess.Query()), "the selection comes back with its step")
}

// cloneQuery is a copy of q whose values are its own.
func cloneQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// linkParamsTable is README's list of the link's parameters, made from
// linkParams.
func linkParamsTable() string {
	var b strings.Builder
	b.WriteString("| parameter | of | what it says |\n|---|---|---|\n")
	for _, row := range linkParams {
		of := "the page"
		if row.pane {
			of = fmt.Sprintf("each pane (`%s.2` … `%s.%d`)", row.name, row.name, MaxViews)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", row.name, of, row.says)
	}
	return b.String()
}

// README lists every link parameter as the table says (go test -run
// READMELists -v prints the list to paste when it does not).
func TestREADMEListsEveryLinkParameter(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	table := linkParamsTable()
	assert.Contains(t, string(readme), table, "README's list of link parameters differs from linkParams; it should read:\n\n%s", table)
}
