package ui

// Component tests for the page, run on go-app's native test engine.
//
// Natively go-app mounts components without a browser: OnPreRender runs,
// OnMount does not, JavaScript values are no-op stubs, and event handlers
// can never fire (app.FuncOf drops the Go function). So these tests
//
//   - set the Lab's state the way its handlers and OnNav would (open a link,
//     a session, a menu), load it with app.NewTestEngine and read what it
//     renders, as app.HTMLString of the mounted tree parsed back into a small
//     DOM, plus app.Match where the exact shape matters;
//   - drive the Lab's own action methods (forward, act, click, key, …) with
//     the real app.Context go-app gives the mounted component: host embeds
//     the Lab and keeps the context its OnPreRender receives, and rig.do
//     dispatches an action on it the way go-app runs an event handler, so
//     the engine re-renders the Lab and its URL follows (natively
//     ctx.Page() is the request page, whose URL ReplaceURL sets).
//
// What cannot run here: the canvas (paint finds no element, so c.scene
// stays nil unless a test lays it out as paint would), the closures bound
// to buttons and inputs (their bodies are run through the named methods
// they call), window listeners and the canvas observer, downloads.

import (
	"errors"
	"fmt"
	"html"
	"net/url"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/app/lab"
	"spacetime/core/algo/all"
	"spacetime/core/algo/python"
	"spacetime/core/faults"
	"spacetime/core/logimport"
	"spacetime/core/report"
	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/scenariotest"
)

// TestMain registers the interpreter of learners' programs, which the
// Write view's client links (the lesson page's leaves it out): the
// editor's tests run programs.
func TestMain(m *testing.M) {
	all.Add(python.Spec)
	os.Exit(m.Run())
}

// ---------------------------------------------------------------------------
// The rendered page as a small DOM.

// node is an element (tag set) or a text (tag empty) of the rendered HTML.
type node struct {
	tag    string
	attrs  map[string]string
	kids   []*node
	data   string
	parent *node
	// selfClosing marks an element written as <tag … /> (inline SVG).
	selfClosing bool
}

// voids are the elements go-app writes without an end tag.
var voids = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "param": true, "source": true, "track": true, "wbr": true,
}

// parseHTML reads what go-app's encoder writes (app.HTMLString): tags,
// attributes written bare when "true" and otherwise as name=strconv.Quote
// (value) — Go quoting, of values that attrText has written as HTML
// (character references) where they were not constant — text escaped by
// html.EscapeString, void elements left open.
func parseHTML(t testing.TB, s string) *node {
	t.Helper()
	root := &node{tag: "#document", attrs: map[string]string{}}
	cur := root
	fail := func(i int, why string) {
		t.Helper()
		require.Failf(t, "the rendered HTML does not parse", "%s at byte %d (%q…) of:\n%s", why, i, s[i:min(i+40, len(s))], s)
	}
	name := func(i int) (string, int) {
		j := i
		for j < len(s) && !strings.ContainsRune(" \n\t=>/", rune(s[j])) {
			j++
		}
		return s[i:j], j
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "</"):
			tag, j := name(i + 2)
			if j >= len(s) || s[j] != '>' || cur.tag != tag {
				fail(i, "unmatched end tag </"+tag+"> inside <"+cur.tag+">")
				return root
			}
			cur, i = cur.parent, j+1
		case s[i] == '<':
			tag, j := name(i + 1)
			if tag == "" {
				fail(i, "empty tag name")
				return root
			}
			n := &node{tag: tag, attrs: map[string]string{}, parent: cur}
			for {
				for j < len(s) && s[j] == ' ' {
					j++
				}
				if j >= len(s) {
					fail(i, "unterminated tag")
					return root
				}
				if s[j] == '>' {
					j++
					break
				}
				if strings.HasPrefix(s[j:], "/>") { // a self-closing SVG element
					n.selfClosing = true
					j += 2
					break
				}
				var attr string
				attr, j = name(j)
				if attr == "" {
					fail(j, "expected an attribute name")
					return root
				}
				if j < len(s) && s[j] == '=' {
					q, err := strconv.QuotedPrefix(s[j+1:])
					if err != nil {
						fail(j, "attribute value is not Go-quoted")
						return root
					}
					v, _ := strconv.Unquote(q)
					n.attrs[attr] = html.UnescapeString(v)
					j += 1 + len(q)
				} else {
					n.attrs[attr] = "true"
				}
			}
			cur.kids = append(cur.kids, n)
			if !voids[tag] && !n.selfClosing {
				cur = n
			}
			i = j
		default:
			j := strings.IndexByte(s[i:], '<')
			if j < 0 {
				j = len(s) - i
			}
			cur.kids = append(cur.kids, &node{data: html.UnescapeString(s[i : i+j]), parent: cur})
			i += j
		}
	}
	require.Same(t, root, cur, "unclosed <%s> in:\n%s", cur.tag, s)
	return root
}

// all lists the elements under n (n included) that keep returns true for,
// in document order.
func (n *node) all(keep func(*node) bool) []*node {
	var out []*node
	var walk func(*node)
	walk = func(m *node) {
		if m.tag != "" && keep(m) {
			out = append(out, m)
		}
		for _, k := range m.kids {
			walk(k)
		}
	}
	walk(n)
	return out
}

func (n *node) tags(tag string) []*node {
	return n.all(func(m *node) bool { return m.tag == tag })
}

func (n *node) classed(class string) []*node {
	return n.all(func(m *node) bool { return m.hasClass(class) })
}

// byID is the element with that id, or nil.
func (n *node) byID(id string) *node {
	if found := n.all(func(m *node) bool { return m.attrs["id"] == id }); len(found) > 0 {
		return found[0]
	}
	return nil
}

func (n *node) hasClass(class string) bool {
	return slices.Contains(strings.Fields(n.attrs["class"]), class)
}

// on reads a boolean attribute the way go-app means it (checked="false" is
// go-app's unchecked box).
func (n *node) on(name string) bool {
	v, ok := n.attrs[name]
	return ok && v != "false"
}

// text is the element's text exactly as rendered (go-app indents children
// of elements with more than one child, so use words for those).
func (n *node) text() string {
	if n.tag == "" {
		return n.data
	}
	var b strings.Builder
	for _, k := range n.kids {
		b.WriteString(k.text())
	}
	return b.String()
}

// words is the element's text with whitespace collapsed.
func (n *node) words() string { return strings.Join(strings.Fields(n.text()), " ") }

// canonical writes the tree with sorted attributes and collapsed
// whitespace: go-app writes attributes in map order.
func (n *node) canonical() string {
	var b strings.Builder
	var walk func(*node)
	walk = func(m *node) {
		if m.tag == "" {
			if w := strings.Join(strings.Fields(m.data), " "); w != "" {
				b.WriteString(w + "\n")
			}
			return
		}
		keys := make([]string, 0, len(m.attrs))
		for k := range m.attrs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("<" + m.tag)
		for _, k := range keys {
			b.WriteString(" " + k + "=" + strconv.Quote(m.attrs[k]))
		}
		b.WriteString(">\n")
		for _, k := range m.kids {
			walk(k)
		}
		b.WriteString("</" + m.tag + ">\n")
	}
	walk(n)
	return b.String()
}

// page is one rendering of the Lab.
type page struct {
	t    testing.TB
	html string
	*node
}

// render reads the component's mounted tree: app.HTMLString encodes the
// root a component was last rendered to, so a page shows what the engine
// rendered, not a fresh Render.
func render(t testing.TB, c app.Composer) page {
	t.Helper()
	require.True(t, c.Mounted(), "render reads the mounted tree")
	h := app.HTMLString(c)
	return page{t: t, html: h, node: parseHTML(t, h)}
}

// id is the element with that id; it must be there.
func (p page) id(id string) *node {
	p.t.Helper()
	n := p.byID(id)
	require.NotNil(p.t, n, "no element #%s in:\n%s", id, p.html)
	return n
}

func (p page) position() string { return p.id("position").text() }

// rows lists the cells of the body rows of a table (its tbody).
func rows(table *node) [][]string {
	var out [][]string
	for _, tb := range table.tags("tbody") {
		for _, tr := range tb.tags("tr") {
			var cells []string
			for _, td := range tr.tags("td") {
				cells = append(cells, td.words())
			}
			out = append(out, cells)
		}
	}
	return out
}

func findRow(t testing.TB, rows [][]string, first string) []string {
	t.Helper()
	for _, r := range rows {
		if len(r) > 0 && r[0] == first {
			return r
		}
	}
	require.Failf(t, "row not found", "no row %q in %v", first, rows)
	return nil
}

// ---------------------------------------------------------------------------
// Sessions, engines and contexts.

// native skips a test where go-app runs as a client (GOOS=js): these tests
// rely on the native engine (OnPreRender runs, JavaScript is stubbed).
func native(t testing.TB) {
	t.Helper()
	if app.IsClient {
		t.Skip("go-app component tests run on the native engine only")
	}
}

func session(t testing.TB, q url.Values) *lab.Session {
	t.Helper()
	s, err := lab.FromQuery(q)
	require.NoError(t, err)
	return s
}

func link(id string, k int) url.Values {
	return url.Values{"s": {id}, "k": {strconv.Itoa(k)}}
}

// load mounts a Lab on a fresh native engine and renders it.
func load(t testing.TB, c *Lab) page {
	t.Helper()
	native(t)
	e := app.NewTestEngine()
	require.NoError(t, e.Load(c))
	e.ConsumeAll()
	return render(t, c)
}

// host is the Lab as the page mounts it, holding the context go-app gives
// it. In the browser the Lab gets its context in OnMount, which never runs
// natively; OnPreRender does, and its context is the mounted component's:
// dispatching on it marks the component for update exactly as an event
// handler inside it does.
type host struct {
	Lab
	live  app.Context
	ready bool
}

func (h *host) OnPreRender(ctx app.Context) { h.live, h.ready = ctx, true }

// rig is a live Lab on a native engine.
type rig struct {
	t testing.TB
	e app.TestEngine
	h *host
	c *Lab
}

// mount opens a link in a live Lab.
func mount(t testing.TB, q url.Values) *rig { return mountAt(t, q, false) }

// mountAt opens a link in a live Lab, as / or as /compare.
func mountAt(t testing.TB, q url.Values, compare bool) *rig {
	t.Helper()
	native(t)
	h := &host{}
	h.compare = compare
	h.open(q)
	require.Empty(t, h.problem)
	e := app.NewTestEngine()
	require.NoError(t, e.Load(h))
	e.ConsumeAll()
	require.True(t, h.ready, "OnPreRender gave the host its context")
	return &rig{t: t, e: e, h: h, c: &h.Lab}
}

// do runs an action the way go-app runs an event handler: dispatched on
// the component's context, then the engine renders a frame and runs what
// the action deferred.
func (r *rig) do(action func(ctx app.Context)) {
	r.h.live.Dispatch(action)
	r.e.ConsumeAll()
}

func (r *rig) page() page { return render(r.t, r.h) }

// url is the page's URL as the Lab last recorded it.
func (r *rig) url() url.Values { return r.h.live.Page().URL().Query() }

// layout lays the diagram out as paint does in the browser, on a 900px
// canvas (natively there is no canvas to measure).
func (r *rig) layout() *diagram.Scene {
	r.c.paneOf(0).layoutPane()
	return r.c.panes[0].scene
}

// labOf is a Lab showing one session.
func labOf(s *lab.Session) *Lab {
	c := &Lab{}
	c.setPage(lab.OpenPage(s))
	return c
}

// labWith is a Lab showing one session, with some state set.
func labWith(s *lab.Session, set func(*Lab)) *Lab {
	c := labOf(s)
	set(c)
	return c
}

// jsValue is a hand-made JavaScript value for the Lab's handlers to read:
// an event, its target, a number or a string. Everything it does not
// answer falls to go-app's native no-op value.
type jsValue struct {
	app.Value
	props map[string]app.Value
	num   float64
	str   string
	calls *[]string
}

func (v jsValue) Get(p string) app.Value {
	if x, ok := v.props[p]; ok {
		return x
	}
	return v.Value.Get(p)
}
func (v jsValue) Float() float64     { return v.num }
func (v jsValue) Int() int           { return int(v.num) }
func (v jsValue) String() string     { return v.str }
func (v jsValue) Truthy() bool       { return v.props != nil || v.num != 0 || v.str != "" }
func (v jsValue) JSValue() app.Value { return v }
func (v jsValue) Call(m string, args ...any) app.Value {
	if v.calls != nil {
		*v.calls = append(*v.calls, m)
	}
	return v.Value.Call(m, args...)
}

func jsNum(x float64) app.Value { return jsValue{Value: app.Undefined(), num: x} }
func jsStr(s string) app.Value  { return jsValue{Value: app.Undefined(), str: s} }
func jsObj(props map[string]app.Value, calls *[]string) app.Value {
	return jsValue{Value: app.Undefined(), props: props, calls: calls}
}

// clickAt is a click on the canvas at (x, y) in its own pixels.
func clickAt(x, y float64) app.Event {
	return app.Event{Value: jsObj(map[string]app.Value{"offsetX": jsNum(x), "offsetY": jsNum(y)}, nil)}
}

// keyDown is a keydown on an element with that tag (and input type); calls
// collects what the handler calls on the event (preventDefault).
func keyDown(key, tag, typ string, calls *[]string) app.Value {
	target := jsObj(map[string]app.Value{"tagName": jsStr(tag), "type": jsStr(typ)}, nil)
	return jsObj(map[string]app.Value{"key": jsStr(key), "target": target}, calls)
}

// queuedBehind finds a step and a message in flight behind another on the
// same channel (so FIFO refuses to deliver it next), and the head.
func queuedBehind(t testing.TB, s *lab.Session) (k, behind, head int) {
	t.Helper()
	r := s.Run()
	for k := 1; k <= r.Len(); k++ {
		v := r.At(k).View()
		for i := range v.N() {
			for j := range v.N() {
				if ids := v.InFlight(sim.NodeID(i), sim.NodeID(j)); len(ids) >= 2 {
					return k, ids[1], ids[0]
				}
			}
		}
	}
	t.Fatal("no channel ever holds two messages")
	return 0, 0, 0
}

// onArrow finds a point of message id's arrow that hits it.
func onArrow(t testing.TB, scene *diagram.Scene, id int, inFlight bool) (float64, float64) {
	t.Helper()
	for f := 0.95; f > 0.05; f -= 0.05 {
		x, y, ok := scene.MessageAt(id, f)
		require.True(t, ok, "message %d is drawn", id)
		if h := scene.Hit(x, y); h.Kind == diagram.HitMessage && h.Msg == id && h.InFlight == inFlight {
			return x, y
		}
	}
	t.Fatalf("no point of message %d can be clicked", id)
	return 0, 0
}

func builtinTitle(t testing.TB, id string) string {
	t.Helper()
	s, err := scenario.Builtin(id)
	require.NoError(t, err)
	return s.Title
}

// ---------------------------------------------------------------------------
// Rendering.

func TestLoadingBeforeASession(t *testing.T) {
	c := &Lab{}
	p := load(t, c)
	require.NoError(t, app.Match(app.Div().Class("lab"), c, 0))
	require.NoError(t, app.Match(app.P(), c, 0, 0))
	require.NoError(t, app.Match(app.Text("Loading…"), c, 0, 0, 0))
	assert.Equal(t, "Loading…", p.words())
	assert.Nil(t, p.byID("position"))
}

// The picker lists every built-in lesson once, grouped by topic in the
// course's order with full titles, the comparisons in a group of their
// own, and selects the lesson shown.
func TestScenarioPickerListsTheBuiltinsAndSelectsTheCurrent(t *testing.T) {
	var ids []string
	for _, b := range scenario.BuiltinList() {
		ids = append(ids, b.ID)
	}
	// the groups: the course's topics in its order, then the comparisons
	var headings []string
	for _, topic := range scenario.Course() {
		headings = append(headings, scenario.TopicHeading(topic.Name))
	}
	headings = append(headings, "Comparisons, side by side")
	for _, current := range []string{"snapshot-bank", "snapshot-nonfifo"} {
		t.Run(current, func(t *testing.T) {
			p := load(t, labOf(session(t, link(current, 0))))
			picker := p.id("scenario")
			require.Equal(t, "select", picker.tag)
			assert.Equal(t, "scenario", picker.attrs["aria-label"])
			groups := picker.tags("optgroup")
			var labels []string
			for _, g := range groups {
				labels = append(labels, g.attrs["label"])
			}
			assert.Equal(t, headings, labels, "the course's order")
			opts := picker.tags("option")
			require.Len(t, opts, len(ids)+len(scenario.Comparisons()), "one option per built-in lesson and per comparison, no extra one")
			var listed, selected []string
			for _, g := range groups[:len(groups)-1] {
				topic := strings.ToLower(g.attrs["label"])
				for _, o := range g.tags("option") {
					id := o.attrs["value"]
					listed = append(listed, id)
					s, err := scenario.Builtin(id)
					require.NoError(t, err)
					assert.Equal(t, topic, s.TopicOf(), "%s is under its topic", id)
					assert.Equal(t, builtinTitle(t, id), o.text(), "the full title")
					if o.on("selected") {
						selected = append(selected, id)
					}
				}
			}
			assert.ElementsMatch(t, ids, listed)
			assert.Equal(t, []string{current}, selected)
			assert.Len(t, groups[len(groups)-1].tags("option"), len(scenario.Comparisons()))
		})
	}
}

func TestPickerOffersAPastedScenarioAsYours(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	s.ID, s.Title = "my-bank", "My own bank"
	sess, err := lab.Open(s)
	require.NoError(t, err)
	p := load(t, labOf(sess))
	opts := p.id("scenario").tags("option")
	require.Len(t, opts, len(scenario.BuiltinList())+len(scenario.Comparisons())+1)
	last := opts[len(opts)-1]
	assert.Equal(t, "(your scenario) My own bank", last.text())
	assert.Equal(t, "", last.attrs["value"])
	assert.True(t, last.on("selected"))
	for _, o := range opts[:len(opts)-1] {
		assert.False(t, o.on("selected"), o.attrs["value"])
	}
}

func TestCheckboxesReflectTheScenarioAndAxis(t *testing.T) {
	for _, tc := range []struct {
		q             url.Values
		fifo, lamport bool
	}{
		{url.Values{"s": {"snapshot-bank"}}, true, false},
		{url.Values{"s": {"snapshot-nonfifo"}}, false, false},
		{url.Values{"s": {"snapshot-nonfifo"}, "axis": {"lamport"}}, false, true},
		{url.Values{"s": {"snapshot-bank"}, "axis": {"lamport"}}, true, true},
	} {
		sess := session(t, tc.q)
		require.Equal(t, tc.fifo, sess.Scenario().FIFO())
		p := load(t, labOf(sess))
		fifo, lamport := p.id("fifo"), p.id("lamport")
		assert.Equal(t, "checkbox", fifo.attrs["type"])
		assert.Equal(t, tc.fifo, fifo.on("checked"), "FIFO box for %v", tc.q)
		assert.Equal(t, tc.lamport, lamport.on("checked"), "Lamport box for %v", tc.q)
		assert.Equal(t, "FIFO channels", fifo.parent.words())
	}
}

func TestPositionCaptionAndScrubberShowTheSessionsStep(t *testing.T) {
	full := session(t, link("snapshot-bank", 0)).Len()
	for _, k := range []int{0, 1, 30, 45, full} {
		sess := session(t, link("snapshot-bank", k))
		c := labOf(sess)
		p := load(t, c)
		want := fmt.Sprintf("step %d / %d · time %d", sess.Step(), sess.Len(), sess.Now())
		assert.Equal(t, want, p.position(), "step %d", k)
		assert.Equal(t, k, sess.Step())

		caption := p.id("caption")
		assert.Equal(t, sess.Caption(), caption.text(), "caption at step %d", k)
		assert.Equal(t, "polite", caption.attrs["aria-live"])
		if k == 0 {
			assert.Equal(t, sess.Scenario().Description, caption.text(), "step 0 introduces the scenario")
			assert.Equal(t, "caption", caption.attrs["class"])
		} else {
			assert.Equal(t, sess.Run().Trace().Records[k-1].Caption, caption.text())
			assert.True(t, caption.hasClass(sess.CaptionSource()), "caption is classed by its source %q", sess.CaptionSource())
		}

		scrub := p.id("scrubber")
		assert.Equal(t, strconv.Itoa(k), scrub.attrs["value"])
		assert.Equal(t, "0", scrub.attrs["min"])
		assert.Equal(t, strconv.Itoa(sess.Len()), scrub.attrs["max"])
	}
}

func TestPositionMatchesInTheMountedTree(t *testing.T) {
	// The same, through go-app's own matcher on the mounted tree: the root
	// div laid out for a projector, its pane's main column (the stage, then
	// the controls, caption and verdict) and the position span, eighth of
	// the controls; the side column beside it. Each part (parts.go) is a
	// node of go-app's tree, its element the node under it.
	sess := session(t, link("snapshot-bank", 30))
	c := labOf(sess)
	load(t, c)
	require.NoError(t, app.Match(app.Div().Class("lab text-L present"), c, 0))
	require.NoError(t, app.Match(app.Header().Class("top"), c, 0, 0, 0))
	require.NoError(t, app.Match(app.Div().Class("main"), c, 0, 1, 0, 0))
	require.NoError(t, app.Match(app.Div().Class("stage"), c, 0, 1, 0, 0, 0))
	require.NoError(t, app.Match(app.Div().Class("controls"), c, 0, 1, 0, 0, 1, 0))
	require.NoError(t, app.Match(app.Span().ID("position").Class("position"), c, 0, 1, 0, 0, 1, 0, 7))
	require.NoError(t, app.Match(app.Text(fmt.Sprintf("step 30 / %d · time %d", sess.Len(), sess.Now())), c, 0, 1, 0, 0, 1, 0, 7, 0))
	verdict, _ := sess.Verdicts().Text()
	require.NoError(t, app.Match(app.Div().Class("words"), c, 0, 1, 0, 0, 2))
	require.NoError(t, app.Match(app.Div().Class("verdict-room"), c, 0, 1, 0, 0, 2, 1))
	require.NoError(t, app.Match(app.Div().ID("verdict").Class("verdict good").Attr("aria-label", verdict), c, 0, 1, 0, 0, 2, 1, 0))
	require.NoError(t, app.Match(app.Aside().Class("side"), c, 0, 1, 0, 1))
}

func TestMoneyPanelIsTheSessionsPanel(t *testing.T) {
	for _, id := range []string{"snapshot-bank", "snapshot-nonfifo"} {
		full := session(t, link(id, 0)).Len()
		for _, k := range []int{0, 45, full} {
			sess := session(t, link(id, k))
			p := load(t, labOf(sess))
			panels := sess.Panels()
			require.NotEmpty(t, panels)
			sections := p.all(func(n *node) bool { _, ok := n.attrs["data-panel"]; return ok })
			require.Len(t, sections, len(panels), "%s step %d", id, k)
			for i, want := range panels {
				got := sections[i]
				assert.Equal(t, want.Title, got.attrs["data-panel"])
				assert.Equal(t, want.Title, got.tags("h2")[0].text())
				var head []string
				for _, th := range got.tags("th") {
					head = append(head, th.text())
				}
				assert.Equal(t, want.Columns, head)
				var cells [][]string
				for _, r := range want.Rows {
					cells = append(cells, r.Cells)
				}
				assert.Equal(t, cells, rows(got), "%s at step %d", want.Title, k)
				trs := got.tags("tbody")[0].tags("tr")
				for j, r := range want.Rows {
					if r.Emphasis != "" {
						assert.True(t, trs[j].hasClass(r.Emphasis), "row %v is %s", r.Cells, r.Emphasis)
					}
					for x, em := range r.CellEmphasis {
						if em != "" {
							assert.True(t, trs[j].tags("td")[x].hasClass(em), "cell %d of %v is %s", x, r.Cells, em)
						}
					}
				}
				if want.Note != "" {
					assert.Equal(t, want.Note, got.classed("note")[0].text())
				}
			}

			// and the money rows say what the report computes
			money := rows(sections[0])
			rep := report.Build(sess.Scenario(), sess.Run(), k)
			live := rep.Metrics["live_balances"].(map[string]int64)
			recorded, _ := rep.Metrics["recorded"].(map[string]int64)
			for _, name := range sess.Scenario().Names {
				row := findRow(t, money, name+" balance")
				assert.Equal(t, fmt.Sprintf("$%d", live[name]), row[1], "live balance of %s at step %d", name, k)
				if rec, ok := recorded[name]; ok {
					assert.Equal(t, fmt.Sprintf("$%d", rec), row[2], "recorded balance of %s at step %d", name, k)
				}
			}
			total := findRow(t, money, "total (opening $300)")
			assert.Equal(t, fmt.Sprintf("$%d", rep.Metrics["live_total"]), total[1])
		}
	}
}

func TestInvariantsPanelSaysHoldsOrWhereItFails(t *testing.T) {
	t.Run("bank", func(t *testing.T) {
		sess := session(t, link("snapshot-bank", 0))
		sess.Seek(sess.Len())
		p := load(t, labOf(sess))
		items := p.id("invariants").tags("li")
		require.Len(t, items, len(sess.Report().Invariants))
		require.NotEmpty(t, items)
		for _, li := range items {
			assert.Equal(t, "holds", li.classed("status")[0].text(), li.words())
			assert.True(t, li.hasClass("good"))
			assert.Empty(t, li.classed("detail"))
		}
	})
	t.Run("nonfifo", func(t *testing.T) {
		sess := session(t, link("snapshot-nonfifo", 0))
		sess.Seek(sess.Len())
		p := load(t, labOf(sess))
		invs := sess.Report().Invariants
		items := p.id("invariants").tags("li")
		require.Len(t, items, len(invs))
		failed := 0
		for i, inv := range invs {
			li := items[i]
			assert.Equal(t, inv.Name+":", strings.TrimSpace(li.tags("strong")[0].text()))
			status := li.classed("status")[0].text()
			if inv.OK {
				assert.Equal(t, "holds", status)
				continue
			}
			failed++
			require.NotNil(t, inv.FirstFailingStep)
			want := fmt.Sprintf("fails at step %d", *inv.FirstFailingStep)
			if inv.Expected {
				want += " (this lesson's point)"
			}
			assert.Equal(t, want, status)
			assert.True(t, li.hasClass("bad"))
			require.NotEmpty(t, inv.Detail)
			assert.Equal(t, inv.Detail, li.classed("detail")[0].text())
		}
		assert.Equal(t, 1, failed, "the lesson's one violation")
		assert.Contains(t, p.id("invariants").words(), "snapshot total equals the money there is: fails at step")
		assert.Contains(t, p.id("invariants").words(), "(this lesson's point)")

		// before the snapshot completes, everything still holds
		sess.Seek(1)
		early := load(t, labOf(sess))
		for _, s := range early.id("invariants").classed("status") {
			assert.Equal(t, "holds", s.text())
		}
	})
}

func TestMessagesAndProcessesPanels(t *testing.T) {
	sess := session(t, link("snapshot-bank", 45))
	require.NoError(t, sess.Fault("crash", faults.AtProcess(1)))
	p := load(t, labOf(sess))
	rep := sess.Report()
	msgs := rows(p.id("messages"))
	for kind, n := range rep.Messages.ByKind {
		assert.Equal(t, fmt.Sprint(n), findRow(t, msgs, kind)[1])
	}
	assert.Contains(t, p.id("messages").words(), "the algorithm needs N(N−1) = 6 per snapshot")

	procs := rows(p.id("processes"))
	require.Len(t, procs, 3)
	for i, want := range sess.Processes() {
		assert.Equal(t, want.Name, procs[i][0])
		assert.Equal(t, want.Health, procs[i][1])
		assert.Equal(t, fmt.Sprint(want.Lamport), procs[i][3])
		assert.Equal(t, want.Vector, procs[i][4])
	}
	assert.Equal(t, "crashed", findRow(t, procs, "B")[1])
}

func TestABadLinkSaysWhichParameterAndKeepsAView(t *testing.T) {
	t.Run("first link", func(t *testing.T) {
		c := &Lab{}
		c.open(url.Values{"s": {"nope"}})
		p := load(t, c)
		alert := p.all(func(n *node) bool { return n.attrs["role"] == "alert" })
		require.Len(t, alert, 1)
		assert.True(t, alert[0].hasClass("problem"))
		msg := alert[0].tags("span")[0].text()
		assert.Contains(t, msg, "This link could not be opened")
		assert.Contains(t, msg, `link parameter "s"`)
		assert.Contains(t, msg, `"nope"`)
		assert.Equal(t, "Dismiss", alert[0].tags("button")[0].text())
		// the default lesson is shown beneath
		def := session(t, url.Values{})
		assert.Equal(t, fmt.Sprintf("step 0 / %d · time 0", def.Len()), p.position())
		assert.Equal(t, def.Caption(), p.id("caption").text())
		for _, o := range p.id("scenario").tags("option") {
			assert.Equal(t, o.attrs["value"] == scenario.Default, o.on("selected"), "the default lesson is picked, and only it: %s", o.attrs["value"])
		}
	})
	t.Run("later link", func(t *testing.T) {
		for param, q := range map[string]url.Values{
			"k":    {"s": {"snapshot-bank"}, "k": {"ten"}},
			"axis": {"s": {"snapshot-bank"}, "axis": {"sideways"}},
			"in":   {"s": {"snapshot-bank"}, "in": {"12q5"}},
			"v":    {"v": {"7"}},
		} {
			c := &Lab{}
			c.open(link("snapshot-nonfifo", 12))
			require.Empty(t, c.problem)
			c.open(q)
			p := load(t, c)
			alert := p.all(func(n *node) bool { return n.attrs["role"] == "alert" })
			require.Len(t, alert, 1, param)
			assert.Contains(t, alert[0].words(), fmt.Sprintf("link parameter %q", param))
			// the view it had stays
			assert.Equal(t, "snapshot-nonfifo", c.sess(0).Scenario().ID)
			assert.True(t, strings.HasPrefix(p.position(), "step 12 / "), p.position())
		}
		// a good link clears the problem
		c := &Lab{}
		c.open(url.Values{"s": {"nope"}})
		require.NotEmpty(t, c.problem)
		c.open(link("snapshot-bank", 3))
		p := load(t, c)
		assert.Empty(t, p.all(func(n *node) bool { return n.attrs["role"] == "alert" }))
		assert.True(t, strings.HasPrefix(p.position(), "step 3 / "), p.position())
	})
}

func TestProcessMenuOffersWhatTheProcessCanDo(t *testing.T) {
	t.Run("up", func(t *testing.T) {
		c := labOf(session(t, link("snapshot-bank", 20)))
		c.panes[0].menu = menu{kind: menuProcess, node: 1, x: 24, y: 100, msg: -1}
		p := load(t, c)
		menu := p.id("process-menu")
		assert.Equal(t, "B (up)", menu.classed("menu-title")[0].text())
		assert.Equal(t, "Crash B", p.id("menu-crash").text())
		assert.Equal(t, "GC-pause B", p.id("menu-pause").text())
		assert.Equal(t, "GC-pause B for ticks", p.id("menu-pause").parent.words(), "the duration's input sits between its words")
		assert.Equal(t, "15", p.id("menu-pause-for").attrs["value"])
		assert.Equal(t, "5", p.id("menu-skew-by").attrs["value"])
		assert.Equal(t, "Cut the link from B", p.id("menu-cut").text())
		var targets []string
		for _, o := range p.id("menu-cut-target").tags("option") {
			targets = append(targets, o.text())
		}
		assert.Equal(t, []string{"A", "C"}, targets, "B's links go to A and C")
		assert.Nil(t, p.byID("menu-heal"), "no link of B is cut")
		assert.Equal(t, "snapshot from B", p.id("menu-cmd-snapshot").text())
		assert.Nil(t, p.byID("menu-recover"))
		assert.Contains(t, menu.attrs["style"], "left:32px")
		assert.Contains(t, menu.attrs["style"], "top:108px")
		// the menu sits on the stage, by the canvas
		assert.Equal(t, "stage", menu.parent.attrs["class"])
	})
	t.Run("crashed", func(t *testing.T) {
		sess := session(t, link("snapshot-bank", 20))
		require.NoError(t, sess.Fault("crash", faults.AtProcess(1)))
		c := labWith(sess, func(c *Lab) { c.panes[0].menu = menu{kind: menuProcess, node: 1, msg: -1} })
		p := load(t, c)
		assert.Equal(t, "B (crashed)", p.id("process-menu").classed("menu-title")[0].text())
		assert.Equal(t, "Recover B", p.id("menu-recover").text())
		assert.Nil(t, p.byID("menu-crash"))
		assert.Nil(t, p.byID("menu-pause"))
		assert.Nil(t, p.byID("menu-cmd-snapshot"))
	})
	t.Run("paused", func(t *testing.T) {
		sess := session(t, link("snapshot-bank", 20))
		require.NoError(t, sess.Fault("pause", faults.AtProcess(2).With("for", faults.ParamTicks.Num(15))))
		c := labWith(sess, func(c *Lab) { c.panes[0].menu = menu{kind: menuProcess, node: 2, msg: -1} })
		p := load(t, c)
		assert.Equal(t, "C (paused)", p.id("process-menu").classed("menu-title")[0].text())
		assert.Equal(t, "Crash C", p.id("menu-crash").text(), "a paused process can still crash")
		assert.Nil(t, p.byID("menu-pause"))
		assert.Nil(t, p.byID("menu-recover"))
	})
	t.Run("closed", func(t *testing.T) {
		p := load(t, labWith(session(t, link("snapshot-bank", 20)), func(c *Lab) { c.panes[0].menu = menu{node: 1, msg: -1} }))
		assert.Nil(t, p.byID("process-menu"))
	})
}

func TestEmbedShowsOnlyTheDiagramControlsAndCaption(t *testing.T) {
	c := &Lab{}
	c.open(url.Values{"s": {"snapshot-bank"}, "k": {"30"}, "embed": {"1"}})
	require.True(t, c.embed)
	c.loading = true // the loader never shows embedded
	p := load(t, c)
	assert.Empty(t, p.tags("header"))
	assert.Nil(t, p.byID("scenario"))
	assert.Empty(t, p.classed("panels"))
	assert.Nil(t, p.byID("invariants"))
	assert.Nil(t, p.byID("scenario-text"))
	// natively the page renders as the server prerenders it: the diagram
	// as inline SVG, which the browser's canvas replaces
	require.Len(t, p.classed("prerender"), 1)
	assert.Len(t, p.classed("prerender")[0].tags("svg"), 1)
	assert.True(t, strings.HasPrefix(p.position(), "step 30 / "))

	// exactly: the root, one pane, in it the diagram (no topology view in
	// a slide), controls, caption and verdict, nothing after or beside
	require.NoError(t, app.Match(app.Div().Class("lab text-L embed"), c, 0))
	require.NoError(t, app.Match(app.Div().Class("main"), c, 0, 0, 0, 0))
	require.NoError(t, app.Match(app.Div().Class("stage"), c, 0, 0, 0, 0, 0))
	require.NoError(t, app.Match(app.Div().Class("controls"), c, 0, 0, 0, 0, 1, 0))
	require.NoError(t, app.Match(app.Div().Class("caption-room"), c, 0, 0, 0, 0, 2, 0))
	require.NoError(t, app.Match(app.Div().ID("caption").Class("caption "+c.sess(0).CaptionSource()).Attr("aria-live", "polite"), c, 0, 0, 0, 0, 2, 0, 0))
	require.NoError(t, app.Match(app.Text(c.sess(0).Caption()), c, 0, 0, 0, 0, 2, 0, 0, 0))
	verdict, _ := c.sess(0).Verdicts().Text()
	require.NoError(t, app.Match(app.Div().ID("verdict").Class("verdict good").Attr("aria-label", verdict), c, 0, 0, 0, 0, 2, 1, 0))
	assert.Error(t, app.Match(app.Div(), c, 0, 0, 0, 0, 3), "nothing follows the caption and verdict")
	assert.Error(t, app.Match(app.Div(), c, 0, 0, 0, 0, 2, 2), "nothing follows the verdict")
	assert.Error(t, app.Match(app.Aside(), c, 0, 0, 0, 1), "no side column: no topology view, panels or legend in a slide")
	assert.Error(t, app.Match(app.Div(), c, 0, 1), "one pane")

	// the same link without embed has the header and panels
	c2 := &Lab{}
	c2.open(link("snapshot-bank", 30))
	c2.loading = true
	p2 := load(t, c2)
	assert.Len(t, p2.tags("header"), 1)
	assert.Len(t, p2.classed("panels"), 1)
	assert.NotNil(t, p2.byID("scenario-text"))
}

func TestEmbedStaysEmbeddedAsTheViewChanges(t *testing.T) {
	r := mount(t, url.Values{"s": {"snapshot-bank"}, "k": {"5"}, "embed": {"1"}})
	r.do(r.c.controlsOf(0).forward)
	assert.Equal(t, "1", r.url().Get("embed"), "the link keeps embed")
	assert.Equal(t, "6", r.url().Get("k"))
	assert.Empty(t, r.page().tags("header"))
}

func TestCommandBarOffersTheSnapshotAtEveryProcess(t *testing.T) {
	sess := session(t, link("snapshot-bank", 0))
	p := load(t, labOf(sess))
	bars := p.classed("commands")
	require.Len(t, bars, 1)
	assert.True(t, bars[0].parent.hasClass("tools"), "the command bar is among the run's tools")
	buttons := bars[0].tags("button")
	var texts, ids []string
	for _, b := range buttons {
		texts = append(texts, b.text())
		ids = append(ids, b.attrs["id"])
		assert.True(t, b.hasClass("cmd"))
	}
	assert.Equal(t, []string{"snapshot from A", "snapshot from B", "snapshot from C"}, texts)
	assert.Equal(t, []string{"cmd-snapshot-A", "cmd-snapshot-B", "cmd-snapshot-C"}, ids)
	cmd, ok := sess.Spec().Command("snapshot")
	require.True(t, ok)
	assert.Equal(t, cmd.Help, buttons[0].attrs["title"])
}

func TestLoaderShowsTheText(t *testing.T) {
	c := labWith(session(t, link("snapshot-bank", 0)), func(c *Lab) { c.loading, c.loadText = true, `{"id": "x"}` })
	p := load(t, c)
	area := p.id("scenario-text")
	assert.Equal(t, "textarea", area.tag)
	// go-app sets a textarea's text as its value (a property in the
	// browser, an attribute when encoded)
	assert.Equal(t, `{"id": "x"}`, area.attrs["value"])
	assert.Equal(t, "Open this scenario", p.id("load-apply").text())
}

// A log's scenario too large to open again from the Load panel (or to
// link) is not encoded into it: the panel says so and leaves its text
// empty, instead of taking seconds to fill it with megabytes.
func TestLoaderLeavesOutALargeLog(t *testing.T) {
	long, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	r, err := scenariotest.Plan(t, long).Run()
	require.NoError(t, err)
	logs, err := logimport.FromLog(r.Trace().ShiViz(20_000), "long.log")
	require.NoError(t, err)
	sess, err := lab.OpenPlan(logs[0], nil)
	require.NoError(t, err)
	require.Nil(t, sess.ScenarioFile().Bytes(), "the log's file is larger than a link carries")
	c := labWith(sess, func(c *Lab) { c.importer().toggleLoader() })
	require.True(t, c.loading)
	p := load(t, c)
	assert.Empty(t, p.id("scenario-text").attrs["value"])
	assert.Contains(t, p.classed("loader")[0].words(), "the current scenario's file is larger than 1024 KiB, too large to show here")

	bank := session(t, link("snapshot-bank", 0))
	small := labWith(bank, func(c *Lab) { c.importer().toggleLoader() })
	p = load(t, small)
	assert.Equal(t, string(bank.Scenario().JSON()), p.id("scenario-text").attrs["value"])
	assert.Contains(t, p.classed("loader")[0].words(), "the current scenario is shown as an example")
}

func TestSpeedsAndPlayLabel(t *testing.T) {
	c := labWith(session(t, link("snapshot-bank", 0)), func(c *Lab) { c.speed, c.panes[0].playing = 16, true })
	p := load(t, c)
	var offered, picked []string
	for _, o := range p.id("speed").tags("option") {
		offered = append(offered, o.text())
		if o.on("selected") {
			picked = append(picked, o.attrs["value"])
		}
	}
	assert.Equal(t, []string{"1 steps/s", "2 steps/s", "4 steps/s", "8 steps/s", "16 steps/s", "60 steps/s"}, offered)
	assert.Equal(t, []string{"16"}, picked)
	assert.Equal(t, "❚❚ Pause", p.id("play").text())
}

// ---------------------------------------------------------------------------
// Actions, on the live Lab.

func TestHostHasTheMountedComponentsContext(t *testing.T) {
	r := mount(t, link("snapshot-bank", 0))
	// the Lab renders through the host, and a dispatch on the host's
	// context re-renders it
	assert.True(t, strings.HasPrefix(r.page().position(), "step 0 / "))
	r.c.sess(0).Seek(7) // behind the component's back: nothing renders it…
	r.e.ConsumeAll()
	assert.True(t, strings.HasPrefix(r.page().position(), "step 0 / "), "no update was asked for")
	r.do(func(app.Context) {}) // …until something dispatches on it
	assert.True(t, strings.HasPrefix(r.page().position(), "step 7 / "))
}

func TestStepsChangeThePositionCaptionAndURL(t *testing.T) {
	r := mount(t, link("snapshot-bank", 30))
	sess := r.c.sess(0)
	n := sess.Len()
	check := func(k int) {
		t.Helper()
		p := r.page()
		assert.Equal(t, fmt.Sprintf("step %d / %d · time %d", k, n, sess.Run().At(k).Now()), p.position())
		assert.Equal(t, sess.Caption(), p.id("caption").text())
		assert.Equal(t, strconv.Itoa(k), p.id("scrubber").attrs["value"])
		assert.Equal(t, strconv.Itoa(k), r.url().Get("k"), "the URL follows the view")
		assert.Equal(t, sess.Query(), r.url())
	}
	r.do(r.c.controlsOf(0).forward)
	check(31)
	r.do(r.c.controlsOf(0).forward)
	check(32)
	r.do(r.c.controlsOf(0).back)
	check(31)
	r.do(r.c.controlsOf(0).home)
	check(0)
	assert.Equal(t, sess.Scenario().Description, r.page().id("caption").text())
	r.do(r.c.controlsOf(0).back) // nothing before the start
	check(0)
	r.do(r.c.controlsOf(0).end)
	check(n)
	r.do(r.c.controlsOf(0).forward) // nothing after the end
	check(n)
}

func TestAStepClosesTheMenuAndClearsTheNotice(t *testing.T) {
	r := mount(t, link("snapshot-bank", 30))
	r.do(func(app.Context) {
		r.c.panes[0].menu = menu{kind: menuProcess, node: 0, msg: -1}
		r.c.panes[0].notice = "old news"
	})
	p := r.page()
	require.NotNil(t, p.byID("process-menu"))
	require.Equal(t, "old news", p.id("notice").text())
	r.do(r.c.controlsOf(0).forward)
	p = r.page()
	assert.Nil(t, p.byID("process-menu"))
	assert.Nil(t, p.byID("notice"))
}

func TestARefusedDeliveryExplainsAndChangesNothing(t *testing.T) {
	probe := session(t, link("snapshot-bank", 0))
	k, behind, head := queuedBehind(t, probe)
	r := mount(t, link("snapshot-bank", k))
	before := r.page().position()
	r.do(func(ctx app.Context) { r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Deliver(behind) }) })
	p := r.page()
	notice := p.id("notice")
	assert.Equal(t, "status", notice.attrs["role"])
	assert.Contains(t, notice.text(), "is FIFO: only its head")
	assert.Equal(t, before, p.position(), "a refused delivery changes nothing")
	assert.Empty(t, r.url().Get("in"))

	// the head can go, and the notice goes with the refusal
	r.do(func(ctx app.Context) { r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Deliver(head) }) })
	p = r.page()
	assert.Nil(t, p.byID("notice"))
	assert.True(t, strings.HasPrefix(p.position(), fmt.Sprintf("step %d / ", k+1)), p.position())
	assert.Contains(t, p.id("caption").text(), "receives")
	assert.Equal(t, "learner", r.c.sess(0).CaptionSource())
	assert.True(t, p.id("caption").hasClass("learner"))
	assert.Equal(t, fmt.Sprintf("%dd%d", k, head), r.url().Get("in"), "the input is in the link")
}

func TestClicksOnTheDiagram(t *testing.T) {
	probe := session(t, link("snapshot-bank", 0))
	k, behind, head := queuedBehind(t, probe)
	r := mount(t, link("snapshot-bank", k))

	// natively nothing lays the diagram out, so a click finds nothing
	require.Nil(t, r.c.panes[0].scene)
	r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(100, 100)) })
	assert.Nil(t, r.page().byID("notice"))

	scene := r.layout()
	t.Run("message behind another", func(t *testing.T) {
		x, y := onArrow(t, scene, behind, true)
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(x, y)) })
		p := r.page()
		assert.Contains(t, p.id("notice").text(), "is FIFO: only its head")
		assert.True(t, strings.HasPrefix(p.position(), fmt.Sprintf("step %d / ", k)))
	})
	t.Run("process line", func(t *testing.T) {
		y := scene.ProcessY(1)
		require.Equal(t, diagram.HitProcess, scene.Hit(24, y).Kind)
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(24, y)) })
		p := r.page()
		menu := p.id("process-menu")
		assert.Equal(t, "B (up)", menu.classed("menu-title")[0].text())
		assert.Contains(t, menu.attrs["style"], fmt.Sprintf("top:%.0fpx", y+8))
	})
	t.Run("nothing", func(t *testing.T) {
		x, y := 890.0, scene.Height-1
		require.Equal(t, diagram.HitNothing, scene.Hit(x, y).Kind)
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(x, y)) })
		assert.Nil(t, r.page().byID("process-menu"), "a click elsewhere closes the menu")
	})
	t.Run("event", func(t *testing.T) {
		var hit diagram.Hit
		var x, y float64
	search:
		for i := range 3 {
			y = scene.ProcessY(sim.NodeID(i))
			for x = 0; x < 900; x++ {
				if hit = scene.Hit(x, y); hit.Kind == diagram.HitEvent {
					break search
				}
			}
		}
		require.Equal(t, diagram.HitEvent, hit.Kind, "some event dot is clickable")
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(x, y)) })
		// the event is selected: the notice says what came before and after
		assert.Equal(t, hit.Step, r.c.sess(0).Causality().Selected())
		notice := r.page().id("notice").text()
		assert.Contains(t, notice, fmt.Sprintf("Step %d (", hit.Step+1))
		assert.Contains(t, notice, r.c.sess(0).Run().Trace().Records[hit.Step].Caption)
		assert.Contains(t, notice, "happened before it")
		// clicking it again clears the selection
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(x, y)) })
		assert.Equal(t, -1, r.c.sess(0).Causality().Selected())
	})
	t.Run("delivered message", func(t *testing.T) {
		var id = -1
		var x, y float64
		for _, m := range r.c.sess(0).Run().Trace().Msgs {
			if m.RecvStep < 0 || m.RecvStep >= k {
				continue
			}
			for f := 0.9; f > 0.1 && id < 0; f -= 0.05 {
				x, y, _ = scene.MessageAt(m.ID, f)
				if h := scene.Hit(x, y); h.Kind == diagram.HitMessage && h.Msg == m.ID && !h.InFlight {
					id = m.ID
				}
			}
			if id >= 0 {
				break
			}
		}
		require.GreaterOrEqual(t, id, 0, "some delivered message is clickable")
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(x, y)) })
		p := r.page()
		menu := p.id("message-menu")
		assert.Equal(t, r.c.sess(0).Diagram().Describe(id)+" (delivered)", menu.classed("menu-title")[0].text())
		assert.Nil(t, p.byID("menu-deliver"), "a delivered message cannot be delivered again")
		assert.Nil(t, p.byID("menu-drop"))
		msg := r.c.sess(0).Run().Trace().Msgs[id]
		names := r.c.sess(0).Scenario().Names
		assert.Equal(t, fmt.Sprintf("Cut the link %s↔%s", names[msg.From], names[msg.To]), p.id("menu-link-cut").text(), "its channel can be cut from here")
	})
	t.Run("head of the channel", func(t *testing.T) {
		x, y := onArrow(t, scene, head, true)
		r.do(func(ctx app.Context) { r.c.paneOf(0).click(ctx, clickAt(x, y)) })
		p := r.page()
		assert.Nil(t, p.byID("notice"))
		assert.True(t, strings.HasPrefix(p.position(), fmt.Sprintf("step %d / ", k+1)), p.position())
	})
}

func TestMenuActionsCrashAndRecover(t *testing.T) {
	// The menu's buttons are closures; run what they run through act.
	r := mount(t, link("snapshot-bank", 20))
	r.do(func(app.Context) { r.c.panes[0].menu = menu{kind: menuProcess, node: 1, msg: -1} })
	require.NotNil(t, r.page().byID("menu-crash"))
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("crash", faults.AtProcess(1)) })
	})
	p := r.page()
	assert.Nil(t, p.byID("process-menu"), "an action closes the menu")
	assert.True(t, strings.HasPrefix(p.position(), "step 21 / "), p.position())
	assert.Contains(t, p.id("caption").text(), "B crashes")
	assert.Equal(t, "crashed", findRow(t, rows(p.id("processes")), "B")[1])
	assert.Equal(t, "20c2", r.url().Get("in"))

	// crashing it again is refused, and says so
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("crash", faults.AtProcess(1)) })
	})
	p = r.page()
	assert.NotEmpty(t, p.id("notice").text())
	assert.True(t, strings.HasPrefix(p.position(), "step 21 / "), p.position())

	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("recover", faults.AtProcess(1)) })
	})
	p = r.page()
	assert.Nil(t, p.byID("notice"))
	assert.Equal(t, "up", findRow(t, rows(p.id("processes")), "B")[1])
	assert.Equal(t, "20c2,21r2", r.url().Get("in"))

	// a snapshot from C (the command bar's button)
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Command(2, "snapshot", sim.None, 0) })
	})
	assert.Equal(t, "20c2,21r2,22ksnapshot.3.0.0", r.url().Get("in"))

	// reset forgets the inputs
	r.do(r.c.paneOf(0).reset)
	p = r.page()
	assert.True(t, strings.HasPrefix(p.position(), "step 0 / "), p.position())
	assert.Empty(t, r.url().Get("in"))
	assert.Equal(t, "up", findRow(t, rows(p.id("processes")), "B")[1])
}

func TestTheURLReproducesTheView(t *testing.T) {
	r := mount(t, link("snapshot-nonfifo", 25))
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("crash", faults.AtProcess(2)) })
	})
	r.do(r.c.controlsOf(0).forward)
	r.do(func(ctx app.Context) { r.c.settingsOf(0).setAxis(ctx, string(diagram.AxisLamport)) })
	q := r.url()
	assert.Equal(t, "lamport", q.Get("axis"))

	fresh := &Lab{}
	fresh.open(q)
	require.Empty(t, fresh.problem)
	assert.Equal(t, r.page().canonical(), load(t, fresh).canonical())
}

func TestOnNavOpensThePagesURL(t *testing.T) {
	r := mount(t, link("snapshot-bank", 0))
	u, err := url.Parse("/?s=snapshot-nonfifo&k=10&axis=lamport")
	require.NoError(t, err)
	r.h.live.Page().ReplaceURL(u)
	r.do(r.h.OnNav)
	p := r.page()
	assert.Equal(t, "snapshot-nonfifo", r.c.sess(0).Scenario().ID)
	assert.True(t, strings.HasPrefix(p.position(), "step 10 / "), p.position())
	assert.False(t, p.id("fifo").on("checked"))
	assert.True(t, p.id("lamport").on("checked"))

	// a bad one keeps the view and says what is wrong
	u, _ = url.Parse("/?s=snapshot-bank&k=-3")
	r.h.live.Page().ReplaceURL(u)
	r.do(r.h.OnNav)
	p = r.page()
	assert.Contains(t, p.all(func(n *node) bool { return n.attrs["role"] == "alert" })[0].words(), `link parameter "k"`)
	assert.True(t, strings.HasPrefix(p.position(), "step 10 / "), p.position())
}

// The FIFO toggle runs the same lesson on the other network, keeping the
// learner's inputs and the step on screen.
func TestFIFOToggleKeepsTheInputs(t *testing.T) {
	r := mount(t, url.Values{"s": {"snapshot-bank"}, "k": {"30"}, "axis": {"lamport"}})
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("crash", faults.AtProcess(1)) })
	})
	require.Equal(t, "30c2", r.url().Get("in"))
	r.do(r.c.settingsOf(0).toggleFIFO)
	p := r.page()
	assert.Equal(t, "snapshot-bank", r.c.sess(0).Scenario().ID, "the same lesson")
	assert.False(t, r.c.sess(0).Scenario().FIFO())
	assert.False(t, p.id("fifo").on("checked"))
	assert.True(t, strings.HasPrefix(p.position(), "step 31 / "), "the step stays: %s", p.position())
	assert.True(t, p.id("lamport").on("checked"), "the axis stays")
	assert.Equal(t, "snapshot-bank", r.url().Get("s"))
	assert.Equal(t, "0", r.url().Get("fifo"), "the link says the channels were switched")
	assert.Equal(t, "30c2", r.url().Get("in"), "the crash is kept")
	assert.Equal(t, "crashed", findRow(t, rows(p.id("processes")), "B")[1])
	assert.Nil(t, p.byID("notice"))

	// on the way back, an input that FIFO refuses ends the replay and says so
	probe := session(t, url.Values{"s": {"snapshot-bank"}, "fifo": {"0"}})
	k, behind, _ := queuedBehind(t, probe)
	r = mount(t, url.Values{"v": {"2"}, "s": {"snapshot-bank"}, "fifo": {"0"}, "k": {strconv.Itoa(k)}})
	r.do(func(ctx app.Context) { r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Deliver(behind) }) })
	require.Empty(t, r.c.panes[0].notice, "without FIFO any message may go first")
	r.do(r.c.settingsOf(0).toggleFIFO)
	assert.True(t, r.c.sess(0).Scenario().FIFO())
	assert.Contains(t, r.page().id("notice").text(), "0 of your 1 inputs replay on this network")
	assert.Contains(t, r.page().id("notice").text(), "only its head")
	assert.Empty(t, r.url().Get("fifo"), "back to the built-in as it is")
}

func TestFIFOToggleFlipsAScenarioWithoutCounterpart(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	s.ID, s.Title = "mine", "Mine"
	sess, err := lab.Open(s)
	require.NoError(t, err)
	r := mount(t, url.Values{"sc": {sess.Query().Get("sc")}})
	require.Equal(t, "mine", r.c.sess(0).Scenario().ID)
	require.True(t, r.page().id("fifo").on("checked"))
	r.do(r.c.settingsOf(0).toggleFIFO)
	p := r.page()
	assert.Equal(t, "mine", r.c.sess(0).Scenario().ID)
	assert.False(t, r.c.sess(0).Scenario().FIFO())
	assert.False(t, p.id("fifo").on("checked"))
	assert.NotEmpty(t, r.url().Get("sc"), "the flipped scenario travels in the link")
}

func TestSwitchingAndPastingScenarios(t *testing.T) {
	r := mount(t, link("snapshot-bank", 12))
	r.do(func(ctx app.Context) { r.c.paneOf(0).switchScenario(ctx, "nope") })
	p := r.page()
	assert.Contains(t, p.all(func(n *node) bool { return n.attrs["role"] == "alert" })[0].words(), `no built-in scenario "nope"`)
	assert.True(t, strings.HasPrefix(p.position(), "step 12 / "))

	r.do(func(ctx app.Context) { r.c.paneOf(0).switchScenario(ctx, "snapshot-nonfifo") })
	p = r.page()
	assert.Empty(t, p.all(func(n *node) bool { return n.attrs["role"] == "alert" }), "opening a scenario clears the problem")
	assert.Equal(t, "snapshot-nonfifo", r.c.sess(0).Scenario().ID)

	// pasting: bad JSON is refused with the loader still open
	r.do(func(app.Context) { r.c.loading, r.c.loadText = true, `{"id": "x", "algorithm": "nope"` })
	r.do(r.c.importer().loadPasted)
	p = r.page()
	assert.Contains(t, p.all(func(n *node) bool { return n.attrs["role"] == "alert" })[0].words(), "This scenario was not loaded:")
	assert.NotNil(t, p.byID("scenario-text"))

	// a good one opens as your scenario and closes the loader
	s, err := scenario.Builtin("snapshot-bank")
	require.NoError(t, err)
	s.ID, s.Title = "pasted", "Pasted bank"
	r.do(func(app.Context) { r.c.loadText = string(s.JSON()) })
	r.do(r.c.importer().loadPasted)
	p = r.page()
	assert.Nil(t, p.byID("scenario-text"))
	assert.Empty(t, p.all(func(n *node) bool { return n.attrs["role"] == "alert" }))
	opts := p.id("scenario").tags("option")
	assert.Equal(t, "(your scenario) Pasted bank", opts[len(opts)-1].text())
	assert.True(t, opts[len(opts)-1].on("selected"))
}

func TestMountingSetsDefaultsAndKeysAct(t *testing.T) {
	r := mount(t, link("snapshot-bank", 30))
	// OnMount never runs natively; run it as the browser would. Its window
	// listeners go to go-app's native stubs.
	r.do(r.h.OnMount)
	require.True(t, r.c.mounted)
	assert.Equal(t, 4, r.c.speed)
	p := r.page()
	for _, o := range p.id("speed").tags("option") {
		assert.Equal(t, o.attrs["value"] == "4", o.on("selected"), o.attrs["value"])
	}

	press := func(key, tag, typ string) []string {
		t.Helper()
		var calls []string
		r.c.key(keyDown(key, tag, typ, &calls))
		r.e.ConsumeAll()
		return calls
	}
	at := func(k int) {
		t.Helper()
		assert.True(t, strings.HasPrefix(r.page().position(), fmt.Sprintf("step %d / ", k)), r.page().position())
	}
	assert.Equal(t, []string{"preventDefault"}, press("ArrowRight", "BODY", ""))
	at(31)
	press("PageDown", "BODY", "")
	at(32)
	press("ArrowLeft", "BUTTON", "")
	at(31)
	press("PageUp", "BODY", "")
	at(30)
	press("ArrowRight", "INPUT", "checkbox") // a focused checkbox does not keep the arrows
	at(31)
	press("End", "BODY", "")
	at(r.c.sess(0).Len())
	press("Home", "BODY", "")
	at(0)
	assert.Equal(t, "0", r.url().Get("k"))

	// keys typed into fields belong to them
	for _, target := range [][2]string{{"TEXTAREA", ""}, {"SELECT", ""}, {"INPUT", "range"}, {"INPUT", "number"}} {
		assert.Empty(t, press("ArrowRight", target[0], target[1]), "%v", target)
		at(0)
	}
	// keys the page does not use are left alone
	assert.Empty(t, press("x", "BODY", ""))
	at(0)

	// Escape closes the menu; a step key stops playing
	r.do(func(app.Context) { r.c.panes[0].menu = menu{kind: menuProcess, node: 1, msg: -1} })
	require.NotNil(t, r.page().byID("process-menu"))
	press("Escape", "BODY", "")
	assert.Nil(t, r.page().byID("process-menu"))
	r.c.panes[0].playing = true
	press("ArrowRight", "BODY", "")
	assert.False(t, r.c.panes[0].playing)
	at(1)

	r.c.OnDismount()
	assert.False(t, r.c.mounted)
}

func TestPlayAdvancesAndPauseStops(t *testing.T) {
	r := mount(t, link("snapshot-bank", 10))
	r.c.speed = 60 // OnMount's default never ran; a tick is 1/60 s
	step := func() int { return r.c.sess(0).Step() }

	r.h.live.Dispatch(r.c.controlsOf(0).togglePlay)
	r.e.ConsumeNext() // play: the first tick is scheduled
	assert.True(t, r.c.panes[0].playing)
	assert.Equal(t, "❚❚ Pause", r.page().id("play").text())
	assert.Equal(t, 10, step())
	r.e.ConsumeNext() // a tick
	assert.Equal(t, 11, step())
	assert.True(t, strings.HasPrefix(r.page().position(), "step 11 / "))
	r.e.ConsumeNext()
	assert.Equal(t, 12, step())
	assert.Equal(t, "12", r.url().Get("k"))

	r.h.live.Dispatch(r.c.controlsOf(0).togglePlay) // pause
	r.e.ConsumeAll()
	assert.False(t, r.c.panes[0].playing)
	// ConsumeAll waited for every timer play armed (ctx.After runs as one
	// of the engine's goroutines): a tick already due may land, and no
	// tick comes after it
	stopped := step()
	assert.GreaterOrEqual(t, stopped, 12)
	assert.LessOrEqual(t, stopped, 13, "paused, nothing moves")
	assert.Equal(t, "▶ Play", r.page().id("play").text())

	// at the end, play starts over; it stops by itself at the end
	r.do(r.c.controlsOf(0).end)
	r.c.speed = 1_000_000 // a microsecond a tick: play the whole run
	r.h.live.Dispatch(r.c.controlsOf(0).togglePlay)
	r.e.ConsumeNext()
	assert.Equal(t, 0, step(), "play at the end starts over")
	for i := 0; r.c.panes[0].playing && i < r.c.sess(0).Len()+5; i++ {
		r.e.ConsumeNext() // a tick
	}
	if !assert.False(t, r.c.panes[0].playing, "playing stops at the end") {
		r.c.panes[0].playing = false // let the engine drain
	}
	r.e.ConsumeAll()
	assert.Equal(t, r.c.sess(0).Len(), step())
	assert.Equal(t, "▶ Play", r.page().id("play").text())
}

// The server's prerendered HTML must not carry false flags: a browser reads
// checked="false" as checked until the client takes over.
func TestPrerenderLeavesFalseFlagsOut(t *testing.T) {
	c := &Lab{}
	c.open(url.Values{"s": {"snapshot-bank"}, "k": {"10"}})
	load(t, c)
	html := app.HTMLString(c)
	assert.NotContains(t, html, `checked="false"`)
	assert.NotContains(t, html, `selected="false"`)
	assert.Contains(t, html, `<svg`, "the diagram is prerendered")
	// go-app writes attributes in map order: find the flag in any place
	selected := regexp.MustCompile(`<option[^>]* selected[ >]`)
	assert.Len(t, selected.FindAllString(html, -1), 6, "one scenario, one text size, one speed, the compare picker's prompt, no timestamps and the PNG's scale are selected")
}

// With many processes the command bar is one button beside a picker, not a
// button per process.
func TestCommandBarWithManyProcesses(t *testing.T) {
	s, err := scenario.Builtin("snapshot-long")
	require.NoError(t, err)
	s, err = s.WithN(32)
	require.NoError(t, err)
	s.Until = scenario.Until{Steps: 200}
	sess, err := lab.Open(s)
	require.NoError(t, err)
	c := labWith(sess, func(c *Lab) { c.panes[0].commandNode = 3 })
	load(t, c)
	html := app.HTMLString(c)
	assert.Contains(t, html, `id="command-node"`)
	assert.Contains(t, html, "snapshot from D")
	assert.NotContains(t, html, "snapshot from AF", "no button per process")
}

// The legend names what the diagram of the algorithm on screen draws, with
// the diagram's styles, and what the view shows beyond it.
func TestLegendNamesWhatTheDiagramDraws(t *testing.T) {
	legend := func(s *lab.Session) (string, string) {
		c := labOf(s)
		p := load(t, c)
		l := p.id("legend")
		return l.words(), app.HTMLString(c)
	}
	words, html := legend(session(t, link("snapshot-bank", 10)))
	for _, want := range []string{"transfer", "marker", "state recorded; a snapshot's recording points make its cut", "recorded in channels", "now (messages still in flight end here)"} {
		assert.Contains(t, words, want)
	}
	for _, style := range []string{"dashed " + diagram.Palette[diagram.MarkerColor], "solid " + diagram.Palette[diagram.MessageColor]} {
		assert.Contains(t, html, style)
	}
	assert.NotContains(t, words, "causal past", "nothing is selected")
	assert.NotContains(t, words, "GC pause", "nothing paused yet")
	// a selection and a pause add theirs
	s := session(t, link("snapshot-bank", 10))
	require.NoError(t, s.Fault("pause", faults.AtProcess(1).With("for", faults.ParamTicks.Num(5))))
	s.Causality().Select(3)
	words, _ = legend(s)
	assert.Contains(t, words, "causal past")
	assert.Contains(t, words, "GC pause (a band while the process is paused)")
}

// The server hands the page it opened within its budget to the prerender
// under a token: the component shows that page, or none when the link was
// too much work (the client opens it), and never opens the link again.
func TestPreparedPages(t *testing.T) {
	want := lab.OpenPage(session(t, link("snapshot-nonfifo", 3)))
	tests := []struct {
		name     string
		prepared Prepared
		check    func(t *testing.T, c *Lab)
	}{
		{"a page", Prepared{Page: want}, func(t *testing.T, c *Lab) {
			assert.Same(t, want, c.page)
			assert.Empty(t, c.problem)
		}},
		{"too much work", Prepared{}, func(t *testing.T, c *Lab) {
			assert.Nil(t, c.page, "drawn by the client")
			p := load(t, c)
			assert.Equal(t, "Loading…", p.words())
		}},
		{"a bad link", Prepared{Err: errors.New(`link parameter "k": want a step number, got "x"`)}, func(t *testing.T, c *Lab) {
			assert.Contains(t, c.problem, `link parameter "k"`)
			require.NotNil(t, c.page, "the default lesson instead")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			token, finish := Prepare(tc.prepared)
			defer finish(nil)
			// the link itself would open another lesson: it is not read again
			c := &Lab{}
			c.open(url.Values{"s": {"snapshot-long"}, PreparedParam: {token}})
			tc.check(t, c)
		})
	}
	t.Run("forgotten", func(t *testing.T) {
		token, finish := Prepare(Prepared{})
		finish(nil)
		c := &Lab{}
		c.open(url.Values{"s": {"snapshot-bank"}, PreparedParam: {token}})
		require.NotNil(t, c.page, "an unknown token opens the link as usual")
		assert.Equal(t, "snapshot-bank", c.sess(0).Scenario().ID)
	})
}

// An algorithm's switch runs the same lesson again with fencing off,
// keeping the learner's pause and the step on screen, says what differs
// from the lesson as written, and travels in the link; switched back, the
// lesson is itself again.
func TestSwitchRunsTheSameScheduleAgain(t *testing.T) {
	r := mount(t, url.Values{"s": {"lease-fencing"}, "k": {"8"}})
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error {
			return r.c.sess(0).Fault("pause", faults.AtProcess(3).With("for", faults.ParamTicks.Num(2)))
		})
	})
	inputs := r.url().Get("in")
	require.NotEmpty(t, inputs)
	p := r.page()
	require.True(t, p.id("switch-fencing").on("checked"))
	assert.Nil(t, p.byID("changes"))

	sw := r.c.sess(0).Spec().Learner.Switches[0]
	r.do(func(ctx app.Context) { r.c.settingsOf(0).toggleSwitch(ctx, sw) })
	p = r.page()
	assert.False(t, p.id("switch-fencing").on("checked"))
	assert.Equal(t, "lease-fencing", r.c.sess(0).Scenario().ID, "the same lesson")
	assert.True(t, strings.HasPrefix(p.position(), "step 9 / "), "the step stays: %s", p.position())
	assert.Equal(t, "Changed: fencing tokens: off here, on in the lesson as written.", p.id("changes").text())
	assert.Equal(t, inputs, r.url().Get("in"), "the pause is kept")
	assert.NotEmpty(t, r.url().Get("sc"), "the switched lesson travels in the link")
	assert.Nil(t, p.byID("notice"))
	r.do(r.c.controlsOf(0).end)
	assert.Equal(t, "stale write by client 1", r.c.sess(0).Report().Metrics["final_value"])

	reopened := mount(t, r.url())
	assert.False(t, reopened.page().id("switch-fencing").on("checked"), "the link reopens it switched")

	r.do(func(ctx app.Context) { r.c.settingsOf(0).toggleSwitch(ctx, sw) })
	assert.Equal(t, "lease-fencing", r.url().Get("s"), "back to the built-in as it is")
	assert.Empty(t, r.url().Get("sc"))
	assert.Nil(t, r.page().byID("changes"))
}

// The timestamps picker writes every event's clock under its dot and puts
// it in the link; "none" takes them away.
func TestTimestampsPicker(t *testing.T) {
	r := mount(t, url.Values{"s": {"vector-clock-concurrent"}, "k": {"10"}})
	assert.Equal(t, "none", selected(r.page().id("stamps")))
	r.do(func(ctx app.Context) { r.c.settingsOf(0).setStamps(ctx, "vector") })
	assert.Equal(t, "vector", selected(r.page().id("stamps")))
	assert.Equal(t, "vector", r.url().Get("stamps"))
	var written bool
	for _, sh := range r.layout().Shapes {
		written = written || (sh.Op == diagram.OpText && sh.Text == "[0,4,4]")
	}
	assert.True(t, written, "P3's last event has its vector under it")
	r.do(func(ctx app.Context) { r.c.settingsOf(0).setStamps(ctx, "none") })
	assert.Empty(t, r.url().Get("stamps"))
}

// The finder narrows the picker to the entries holding every word typed,
// in title, id or topic, whatever the case; the lesson shown stays.
func TestFinderNarrowsThePickerByEveryWord(t *testing.T) {
	found := func(query string) []string {
		var out []string
		for _, p := range picks(true) {
			if p.matches(query) {
				out = append(out, p.value)
			}
		}
		return out
	}
	assert.Equal(t, []string{"token-ring-crash"}, found("Ring CRASH token"))
	assert.Contains(t, found("herd"), "coordination-lock-herd")
	assert.Contains(t, found("comparisons mutual"), comparisonPrefix+"mutex-contention-low", "a comparison by its group")
	assert.Empty(t, found("no such lesson"))
	assert.Len(t, found(""), len(scenario.BuiltinList())+len(scenario.Comparisons()))
	for _, v := range found("mutual exclusion") {
		assert.NotContains(t, v, "snapshot")
	}

	// the picker keeps the lesson shown and the matches, in their groups
	html := app.HTMLString(app.Select().Body(lessonOptions("snapshot-bank", true, "herd")...))
	assert.Equal(t, 2, strings.Count(html, "<option"), html)
	assert.Contains(t, html, `value="coordination-lock-herd"`)
	assert.Contains(t, html, `value="snapshot-bank"`)
	assert.Equal(t, 2, strings.Count(html, "<optgroup"), "each in its topic's group")
}

// A grid cell names its run without the start every run's title shares.
func TestSharedHeadOfTitles(t *testing.T) {
	assert.Equal(t, "Six mutual exclusions, low contention: ", sharedHead([]string{"Six mutual exclusions, low contention: Central coordinator", "Six mutual exclusions, low contention: Maekawa"}))
	assert.Equal(t, "Coordinator or coordination service: a crashed holder: ", sharedHead([]string{"Coordinator or coordination service: a crashed holder: Central coordinator", "Coordinator or coordination service: a crashed holder: Lock from a coordination service"}))
	assert.Equal(t, "", sharedHead([]string{"Split brain: a paused leader", "Lease: fencing"}))
	assert.Equal(t, "", sharedHead([]string{"A: b", "A: "}), "no title is left empty")
	assert.Equal(t, "", sharedHead([]string{"Chandy–Lamport: a snapshot", "Chandy–Lamport"}))
}

// The diagram has a text alternative a screen reader finds through the
// canvas: the last 30 events up to the step, and how many came before.
func TestDiagramHasItsEventsInWords(t *testing.T) {
	sess := session(t, link("snapshot-bank", 40))
	c := labOf(sess)
	p := load(t, c)
	items := p.id("events").tags("li")
	require.Len(t, items, 31)
	assert.Equal(t, "10 earlier events", items[0].text())
	assert.True(t, strings.HasPrefix(items[30].text(), "step 40 · "), items[30].text())
	assert.Contains(t, items[30].text(), sess.Run().Trace().Records[39].Caption)
}

// A file's bytes are read as the browser reads its text: its byte order
// mark dropped, bytes that are not UTF-8 replaced.
func TestAFileReadsAsItsText(t *testing.T) {
	assert.Equal(t, "A {\"A\":1}\nstart", fileText([]byte("\xef\xbb\xbfA {\"A\":1}\nstart")))
	assert.Equal(t, "na\uFFFDve", fileText([]byte("na\xffve")))
	assert.Equal(t, "plain → text", fileText([]byte("plain → text")))
}
