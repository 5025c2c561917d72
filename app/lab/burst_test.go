package lab

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestABurstRunsItsPhasesAndGivesTheCollectorBack(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	var ran []string
	var during struct {
		percent int
		limit   int64
	}
	done := Burst(func() bool {
		ran = append(ran, "read")
		during.percent = debug.SetGCPercent(-1)
		during.limit = debug.SetMemoryLimit(-1)
		return true
	}, func() bool {
		ran = append(ran, "run")
		return false
	}, func() bool {
		ran = append(ran, "never")
		return true
	})
	assert.Equal(t, []string{"read", "run"}, ran, "a phase that fails ends the burst")
	assert.False(t, done, "and the burst says so")
	assert.Equal(t, -1, during.percent, "the collector is off during a phase")
	assert.Equal(t, int64(BurstMemoryLimit), during.limit, "within the burst's memory limit")
	assert.Equal(t, 150, debug.SetGCPercent(150), "the collector's pace is given back")
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "and so is the memory limit")
}

func TestABurstKeepsALowerMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(64 << 20))
	var limit int64
	Burst(func() bool { limit = debug.SetMemoryLimit(-1); return true })
	assert.Equal(t, int64(64<<20), limit)
	assert.Equal(t, int64(64<<20), debug.SetMemoryLimit(-1))
}

func TestABurstWithinABurstIsPartOfIt(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	var ran []string
	done := Burst(func() bool {
		assert.True(t, Burst(func() bool {
			ran = append(ran, "inner")
			return true
		}))
		assert.Equal(t, -1, debug.SetGCPercent(-1), "the collector stays off until the outer burst ends")
		ran = append(ran, "outer")
		return true
	})
	assert.Equal(t, []string{"inner", "outer"}, ran)
	assert.True(t, done)
	assert.Equal(t, 100, debug.SetGCPercent(100))
}
