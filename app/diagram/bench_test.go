package diagram_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"spacetime/app/diagram"
	"spacetime/core/scenario"
	"spacetime/internal/scenariotest"
)

// BenchmarkLayout lays out a frame: the bank lesson whole, and the end of the
// 100,000-step lesson at the default zoom and zoomed out to about 10,000
// visible events and messages; then encodes it for the canvas.
func BenchmarkLayout(b *testing.B) {
	for _, tc := range []struct {
		name, lesson string
		k            int
		span         float64
	}{
		{"bank", "snapshot-bank", -1, 0},
		{"long/default-zoom", "snapshot-long", 99_990, 0},
		{"long/10k-visible", "snapshot-long", 99_990, 6500},
	} {
		s, err := scenario.Builtin(tc.lesson)
		require.NoError(b, err)
		r, err := scenariotest.Plan(b, s).Run()
		require.NoError(b, err)
		k := tc.k
		if k < 0 {
			k = r.Len()
		}
		ix := diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
		opt := diagram.Options{Width: 1268, Height: 350, Span: tc.span}
		b.Run(tc.name, func(b *testing.B) {
			var buf []float32
			var texts []string
			for b.Loop() {
				sc := ix.Layout(k, r.Config().Spec, opt)
				buf, texts = sc.Encode(buf, texts)
			}
			ev, msgs := ix.Layout(k, r.Config().Spec, opt).Visible()
			b.ReportMetric(float64(ev+msgs), "visible")
		})
	}
	b.Run("index/100k", func(b *testing.B) {
		s, _ := scenario.Builtin("snapshot-long")
		r, _ := scenariotest.Plan(b, s).Run()
		for b.Loop() {
			diagram.NewIndex(r.Trace(), diagram.AxisTime, r.Config().Spec)
		}
	})
}

func BenchmarkLayoutLamport(b *testing.B) {
	_, r := scenariotest.Run(b, "snapshot-long")
	ix := diagram.NewIndex(r.Trace(), diagram.AxisLamport, r.Config().Spec)
	for b.Loop() {
		ix.Layout(99_990, r.Config().Spec, diagram.Options{Width: 1268, Height: 350})
	}
}
