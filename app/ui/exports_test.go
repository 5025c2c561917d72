package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// The export buttons offer every format, and the PNG's scale shows the
// one the page will use.
func TestExportsOfferEveryFormatAndThePNGScale(t *testing.T) {
	r := mountPart(t, link("snapshot-bank", 20), func(c *state) app.UI { return c.exporter() })
	pg := r.page()
	want := map[string]string{"svg": "SVG", "png": "PNG", "json": "trace JSON", "shiviz": "ShiViz log", "tikz": "TikZ", "scenario": "scenario"}
	for format, label := range want {
		assert.Equal(t, label, pg.id("export-"+format).text(), format)
	}
	selected := func() string {
		for _, o := range r.page().id("png-scale").tags("option") {
			if o.on("selected") {
				return o.text()
			}
		}
		return ""
	}
	assert.Equal(t, "2×", selected(), "2× unless chosen")
	r.do(func(ctx app.Context) { r.st.pngScale = 4; r.st.changed(ctx) })
	assert.Equal(t, "4×", selected())
}
