package ui

import (
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/scenario"
	"spacetime/core/sim"
	"spacetime/internal/algotest"
)

// A compare view renders a pane per run in a grid, each with its own ids,
// pictures and a one-line bar, under one set of controls when they step
// together; a run enlarged shows its lesson picker, settings and panels.
func TestCompareViewRendersAPanePerRun(t *testing.T) {
	r := mountAt(t, url.Values{}, true)
	p := r.page()
	require.NotNil(t, p.byID("pane"))
	require.NotNil(t, p.byID("pane-2"))
	assert.Nil(t, p.byID("pane-3"))
	assert.True(t, p.id("together").on("checked"))
	assert.NotNil(t, p.byID("forward"), "one set of step controls")
	assert.Nil(t, p.byID("forward-2"))
	assert.Equal(t, "event 0 / "+strconv.Itoa(r.c.page.Len(0))+", in time order", p.id("position").text())
	assert.NotNil(t, p.byID("caption-2"))
	assert.NotNil(t, p.byID("verdict-2"))
	assert.NotNil(t, p.byID("side-by-side"), "the table of the runs' figures")
	assert.Len(t, p.classed("grid-bar"), 2, "each run's one-line bar")
	assert.Contains(t, p.classed("grid-bar")[1].words(), "Chandy–Lamport without FIFO")
	assert.Nil(t, p.byID("panels"), "no panels in the grid")
	r.do(func(ctx app.Context) { r.c.controlsOf(0).end(ctx) })
	p = r.page()
	assert.Contains(t, p.id("verdict").text(), "✓")
	assert.Equal(t, "✗", p.id("verdict-2").text(), "the non-FIFO run's cell leads its caption with a ✗")
	assert.Contains(t, p.id("run-verdict-2").words(), "snapshot total equals the money there is: fails", "the non-FIFO run breaks its snapshot: its verdict under its row of the table")
	assert.Nil(t, p.byID("run-verdict"), "the first run holds: no verdict under its row")

	// enlarged: the run alone, with its picker, settings and panels
	r.do(func(ctx app.Context) { r.c.enlarge(ctx, 1) })
	p = r.page()
	assert.Nil(t, p.byID("pane"), "the other run is put away")
	assert.Equal(t, "snapshot-nonfifo", selected(p.id("scenario-2")))
	assert.False(t, p.id("fifo-2").on("checked"))
	assert.NotNil(t, p.byID("panels-2"))
	assert.NotNil(t, p.byID("all-runs"))
	r.do(func(ctx app.Context) { r.c.enlarge(ctx, -1) })
	p = r.page()
	assert.NotNil(t, p.byID("pane"))
	assert.NotNil(t, p.byID("pane-2"))

	// apart: each pane gets its own controls
	r.do(func(ctx app.Context) { r.c.header().setTogether(ctx, false) })
	p = r.page()
	assert.NotNil(t, p.byID("forward-2"))
	assert.Equal(t, "apart", r.url().Get("steps"))
	r.do(func(ctx app.Context) { r.c.controlsOf(1).home(ctx) })
	r.do(func(ctx app.Context) { r.c.controlsOf(1).forward(ctx) })
	assert.Equal(t, "1", r.url().Get("k.2"))
	assert.Equal(t, strconv.Itoa(r.c.sess(0).Len()), r.url().Get("k"), "the other run stays at its end")

	// removing a run leaves a page of one
	r.do(func(ctx app.Context) { r.c.paneOf(0).removeView(ctx) })
	p = r.page()
	assert.Nil(t, p.byID("pane-2"), "the remaining run takes the first pane's ids")
	assert.NotNil(t, p.byID("forward"))
	assert.Equal(t, "snapshot-nonfifo", r.url().Get("s"))
	assert.Empty(t, r.url().Get("s.2"))
}

func selected(sel *node) string {
	for _, o := range sel.tags("option") {
		if o.on("selected") {
			return o.attrs["value"]
		}
	}
	return ""
}

// Keys act on the pane that has focus.
func TestKeysGoToTheFocusedPane(t *testing.T) {
	r := mountAt(t, url.Values{"v": {"2"}, "s": {"snapshot-bank"}, "s.2": {"snapshot-nonfifo"}, "steps": {"apart"}}, false)
	r.do(r.h.OnMount)
	press := func(key string) {
		var calls []string
		r.c.key(keyDown(key, "BODY", "", &calls))
		r.e.ConsumeAll()
	}
	r.c.setFocus(1)
	press("ArrowRight")
	press("ArrowRight")
	assert.Equal(t, "2", r.url().Get("k.2"))
	assert.Equal(t, "0", r.url().Get("k"))
	r.c.setFocus(0)
	press("End")
	assert.Equal(t, strconv.Itoa(r.c.sess(0).Len()), r.url().Get("k"))
	assert.Equal(t, "2", r.url().Get("k.2"))
	assert.True(t, r.page().id("pane").hasClass("active"))
	// together, a key moves both
	r.do(func(ctx app.Context) { r.c.header().setTogether(ctx, true) })
	r.do(func(ctx app.Context) { r.c.controlsOf(0).home(ctx) })
	press("ArrowRight")
	assert.Equal(t, "1", r.url().Get("k"))
	assert.Equal(t, "1", r.url().Get("k.2"), "both runs' first events are at time 0")
	r.c.OnDismount()
}

// The message menu offers what the fault registry offers for a message in
// flight: deliver it, lose it, delay it, duplicate it, and its channel's
// link.
func TestMessageMenuOffersTheRegistrysFaults(t *testing.T) {
	probe := session(t, link("snapshot-bank", 0))
	k, behind, head := queuedBehind(t, probe)
	r := mount(t, link("snapshot-bank", k))
	r.do(func(app.Context) {
		r.c.panes[0].openMenu(menuMessage, 100, 50, false, func(m *menu) { m.msg = behind })
	})
	p := r.page()
	mm := p.id("message-menu")
	assert.Contains(t, mm.classed("menu-title")[0].text(), "(in flight)")
	assert.Nil(t, p.byID("menu-deliver"), "FIFO: it is not the head")
	assert.Equal(t, "Lose it", p.id("menu-drop").text())
	assert.Equal(t, "Delay it", p.id("menu-delay").text())
	assert.Equal(t, "15", p.id("menu-delay-for").attrs["value"])
	assert.Equal(t, "Duplicate it", p.id("menu-duplicate").text())
	assert.True(t, strings.HasPrefix(p.id("menu-link-cut").text(), "Cut the link "))
	assert.Nil(t, p.byID("menu-link-heal"), "the link is not cut")

	r.do(func(app.Context) { r.c.panes[0].openMenu(menuMessage, 100, 50, false, func(m *menu) { m.msg = head }) })
	require.NotNil(t, r.page().byID("menu-deliver"), "the head can go next")
	// what the buttons do: a delay of 15 ticks of the head
	f, _ := lookupFault("delay")
	a, err := r.c.menuOf(0).faultArgs(f, false)
	require.NoError(t, err)
	assert.Equal(t, head, a.Msg)
	assert.Equal(t, sim.Time(15), a.Ticks("for"))
	r.do(func(ctx app.Context) { r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("delay", a) }) })
	assert.Equal(t, strconv.Itoa(k)+"y"+strconv.Itoa(head)+".15", r.url().Get("in"))
	assert.Contains(t, r.page().id("caption").text(), "the network delays")
}

// The network's menu offers what can happen to the whole network now.
func TestNetworkMenu(t *testing.T) {
	r := mount(t, link("snapshot-bank", 20))
	r.do(func(app.Context) { r.c.panes[0].openMenu(menuNetwork, 40, 10, false, func(*menu) {}) })
	p := r.page()
	assert.Equal(t, "The network", p.id("network-menu").classed("menu-title")[0].text())
	assert.Nil(t, p.byID("menu-heal"), "nothing is cut")
	assert.Equal(t, "Partition the network into", p.id("menu-partition").text())
	assert.Equal(t, "Switch FIFO off from now", p.id("menu-fifo").text())
	assert.Nil(t, p.byID("menu-crash"), "a process's faults are in its own menu")

	// after a partition, the network can heal
	f, _ := lookupFault("partition")
	r.c.panes[0].form["partition.groups"] = "A | B C"
	a, err := r.c.menuOf(0).faultArgs(f, false)
	require.NoError(t, err)
	assert.Equal(t, [][]sim.NodeID{{0}, {1, 2}}, a.Groups("groups"))
	r.do(func(ctx app.Context) {
		r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("partition", a) })
	})
	assert.Equal(t, "20g1_2~3", r.url().Get("in"))
	r.do(func(app.Context) { r.c.panes[0].openMenu(menuNetwork, 40, 10, false, func(*menu) {}) })
	assert.Equal(t, "Heal every cut link", r.page().id("menu-heal").text())

	// a partition the learner mistypes is refused with what is wrong
	r.c.panes[0].form["partition.groups"] = "A | Q"
	_, err = r.c.menuOf(0).faultArgs(f, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `no process is called "Q"`)
}

// A fault with a kind of argument the registry has never had gets its
// inputs from its kind, and each flag lands in its own field.
func TestMenuOfAFaultWithANewKind(t *testing.T) {
	algotest.WithJam(t)
	r := mount(t, link("snapshot-bank", 20))
	r.do(func(app.Context) { r.c.panes[0].openMenu(menuProcess, 100, 50, false, func(m *menu) { m.node = 1 }) })
	p := r.page()
	assert.Equal(t, "Jam B", p.id("menu-jam").text())
	share := p.id("menu-jam-share")
	assert.Equal(t, "number", share.attrs["type"])
	assert.Equal(t, "50", share.attrs["value"], "its kind's default")
	assert.Equal(t, "100", share.attrs["max"])
	assert.Equal(t, "loudly", p.id("menu-jam-loud").parent.words())
	assert.Equal(t, "late", p.id("menu-jam-late").parent.words())

	r.c.panes[0].form["jam.share"] = "30"
	r.c.panes[0].form["jam.late"] = "1"
	a, err := r.c.menuOf(0).faultArgs(algotest.Jam, false)
	require.NoError(t, err)
	assert.Equal(t, int64(30), a.Int("share"))
	assert.False(t, a.Flag("loud"))
	assert.True(t, a.Flag("late"))
	r.do(func(ctx app.Context) { r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("jam", a) }) })
	assert.Equal(t, "20w2.30%.0.1", r.url().Get("in"))
	assert.Contains(t, r.page().id("caption").text(), "B is jammed at 30% (loud false, late true)")
}

// A link's menu (a link of the process graph) cuts or heals it, one way or
// both.
func TestLinkMenu(t *testing.T) {
	r := mount(t, link("snapshot-bank", 20))
	r.do(func(app.Context) {
		r.c.panes[0].openMenu(menuLink, 60, 60, true, func(m *menu) { m.node, m.peer = 0, 2 })
	})
	p := r.page()
	lm := p.id("link-menu")
	assert.Equal(t, "Link A–C: A→C up, C→A up", lm.classed("menu-title")[0].text())
	assert.Equal(t, "topology", lm.parent.attrs["class"], "on the process graph, where it was opened")
	assert.Equal(t, "Cut this link", p.id("menu-cut").text())
	assert.Equal(t, "one way only", p.id("menu-cut-oneway").parent.words())
	assert.Nil(t, p.byID("menu-heal"))
	r.c.panes[0].form["cut.oneway"] = "1"
	f, _ := lookupFault("cut")
	a, err := r.c.menuOf(0).faultArgs(f, false)
	require.NoError(t, err)
	assert.True(t, a.Flag("oneway"))
	r.do(func(ctx app.Context) { r.c.paneOf(0).act(ctx, func() error { return r.c.sess(0).Fault("cut", a) }) })
	r.do(func(app.Context) {
		r.c.panes[0].openMenu(menuLink, 60, 60, true, func(m *menu) { m.node, m.peer = 0, 2 })
	})
	p = r.page()
	assert.Equal(t, "Link A–C: A→C cut, C→A up", p.id("link-menu").classed("menu-title")[0].text())
	assert.Equal(t, "Heal this link", p.id("menu-heal").text())
	assert.Equal(t, "Cut this link", p.id("menu-cut").text(), "the other way can still be cut")
}

// Choosing a comparison opens its six runs stepped together, with the
// side-by-side table of their figures, and the link names every run.
func TestComparisonOpensSixRunsSideBySide(t *testing.T) {
	r := mount(t, url.Values{"s": {scenario.Default}})
	p := r.page()
	var offered []string
	for _, o := range p.id("scenario").tags("option") {
		if strings.HasPrefix(o.attrs["value"], comparisonPrefix) {
			offered = append(offered, o.text())
		}
	}
	assert.Equal(t, []string{
		"Compare: A process that wants nothing crashes: the coordinator goes on, Ricart–Agrawala stops",
		"Compare: Coordinator or coordination service: a crashed holder",
		"Compare: Coordinator or coordination service: a paused holder",
		"Compare: One coordination service or a replicated one: the service crashes",
		"Compare: Coordinator or coordination service: steady load",
		"Compare: Six mutual exclusions, high contention",
		"Compare: Six mutual exclusions, low contention",
		"Compare: Three termination detectors on one computation",
	}, offered)
	assert.Nil(t, p.byID("side-by-side"), "one run has no side-by-side table")

	r.do(func(ctx app.Context) { r.c.header().openComparison(ctx, comparisonPrefix+"mutex-contention-high") })
	p = r.page()
	require.NotNil(t, p.byID("pane-6"))
	assert.Nil(t, p.byID("pane-7"))
	assert.True(t, p.id("together").on("checked"))
	q := r.url()
	assert.Equal(t, "mutex-contention-high-central", q.Get("s"))
	assert.Equal(t, "mutex-contention-high-maekawa", q.Get("s.6"))
	table := p.id("side-by-side")
	rows := table.tags("tr")
	require.Len(t, rows, 7, "a heading and a row per run")
	assert.Contains(t, rows[0].words(), "messages per entry")
	assert.Contains(t, rows[0].words(), "sync delay")
	assert.Contains(t, rows[6].words(), "Maekawa")
	r.do(func(ctx app.Context) { r.c.controlsOf(0).end(ctx) })
	p = r.page()
	last := p.id("side-by-side").tags("tr")[6].tags("td")
	assert.Equal(t, "true", last[7].text(), "Maekawa's run deadlocks")
	assert.Equal(t, "6", p.id("side-by-side").tags("tr")[5].tags("td")[4].text()[:1], "Suzuki–Kasami: about N = 7 per entry")
}

// A comparison opened from the picker keeps the learner's presentation:
// the text size and the theme the link asked for stay on the page and in
// its link.
func TestAComparisonKeepsTheTextSizeAndTheme(t *testing.T) {
	r := mountAt(t, url.Values{"s": {"central-queue"}, "text": {"XL"}, "theme": {"dark"}}, false)
	require.Equal(t, "XL", r.c.page.Text)
	r.do(func(ctx app.Context) {
		require.True(t, r.c.header().openComparison(ctx, comparisonPrefix+"mutex-contention-high"))
	})
	require.Len(t, r.c.page.Views, 6)
	assert.Equal(t, "XL", r.c.page.Text)
	assert.Equal(t, "dark", r.c.page.Theme)
	assert.Equal(t, "XL", r.url().Get("text"))
	assert.Equal(t, "dark", r.url().Get("theme"))
}
