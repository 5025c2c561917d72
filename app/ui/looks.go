package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/diagram"
	"spacetime/app/lab"
)

// textSize is the page's text size: the learner's choice, or the size the
// window calls for (L on a projector's 1280 or 1366 columns, XL on a
// 1920-wide one, M on a desk's monitor or a small frame, S on a phone or
// a frame in a slide's corner).
func (c *state) textSize() string {
	if c.page != nil && c.page.Text != "" {
		return c.page.Text
	}
	return defaultTextSize(c.winWidth)
}

// defaultTextSize is the text size for a window this wide (0: unknown,
// as on the server, which prerenders for a projector).
func defaultTextSize(width float64) string {
	switch {
	case width <= 0:
		return "L"
	case width < 600:
		return "S"
	case width < 900:
		return "M"
	case width <= 1366:
		return "L"
	case width >= 1800:
		return "XL"
	}
	return "M"
}

// scale is how much larger than 12 px the diagrams draw.
func (c *state) scale() float64 { return diagram.TextScale(c.textSize()) }

// palette is the diagrams' colours in the page's theme.
func (c *state) palette() []string {
	if c.page == nil {
		return diagram.Palette
	}
	return diagram.PaletteOf(c.page.Theme)
}

// looks are the header's text size and theme pickers; both go into the
// link, so that a lecturer's prepared link opens as prepared.
func (c *Header) looks() app.UI {
	size := c.textSize()
	options := make([]app.UI, len(lab.TextSizes))
	for j, s := range lab.TextSizes {
		options[j] = option(s, "Text "+s, s == size)
	}
	// the button offers the next theme: light, dark, colour-blind, light
	theme, other := "light", "Dark"
	switch c.page.Theme {
	case "dark":
		theme, other = "dark", "Colour-blind"
	case "colour-blind":
		theme, other = "colour-blind", "Light"
	}
	return app.Span().Class("looks").Body(
		app.Select().ID("text-size").Attr("aria-label", "text size").Title("Text size: L and XL for a lecture hall").Body(options...).
			OnChange(func(ctx app.Context, e app.Event) {
				c.page.Text = ctx.JSSrc().Get("value").String()
				c.changed(ctx)
			}),
		app.Button().ID("theme").Attr("data-theme", attrText(theme)).Title("Theme: light, dark, or colours chosen to stay apart for colour-blind readers (press for the next)").Text(other).
			OnClick(func(ctx app.Context, e app.Event) {
				c.page.Theme = map[string]string{"": "dark", "dark": "colour-blind"}[c.page.Theme]
				c.changed(ctx)
			}),
	)
}

// OnPreRender names the page after its lesson, for the server's page
// (tabs, bookmarks and link previews): "Token ring: … · Spacetime".
func (c *Lab) OnPreRender(ctx app.Context) { c.nameThePage(ctx) }

// nameThePage sets the page's title and description to the lesson's.
func (c *state) nameThePage(ctx app.Context) {
	if c.index {
		namePage(ctx, c.prepared, "Spacetime: the course, claim by claim",
			"Every claim of the course on global state and coordination, each a link to a run that shows it, to step, rewind and break.")
		return
	}
	if c.page == nil || len(c.page.Views) == 0 {
		return
	}
	titles := make([]string, len(c.page.Views))
	for i, v := range c.page.Views {
		titles[i] = v.Scenario().Title
	}
	namePage(ctx, c.prepared, clipWords(strings.Join(titles, " | "), 120)+" · Spacetime", clipWords(c.sess(0).Scenario().Description, 300))
}

// clipWords shortens text to at most n bytes at a space (or, with none,
// between two characters), with an ellipsis.
func clipWords(text string, n int) string {
	if len(text) <= n {
		return text
	}
	cut := strings.LastIndex(text[:n], " ")
	if cut <= 0 {
		for cut = n; cut > 0 && !utf8.RuneStart(text[cut]); cut-- {
		}
	}
	return text[:cut] + "…"
}
