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
	assert.Equal(t, -1, debug.SetGCPercent(-1), "and until the burst settles")
	Settle()
	assert.Equal(t, 150, debug.SetGCPercent(150), "the collector's pace is given back")
	assert.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1), "and so is the memory limit")
}

func TestABurstSettlesOnItsOwn(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(120))
	Burst(func() bool { return true })
	assert.Eventually(t, func() bool {
		held.Lock()
		defer held.Unlock()
		return !held.off
	}, 20*SettleAfter, SettleAfter/10)
	assert.Equal(t, 120, debug.SetGCPercent(120))
}

func TestABurstBeforeTheLastSettledKeepsTheCollectorsOwnPace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(130))
	Burst(func() bool { return true })
	Burst(func() bool { return true })
	Settle()
	assert.Equal(t, 130, debug.SetGCPercent(130), "not the pace the first burst left while it was held")
}

func TestSettleWaitsForTheBurstUnderWay(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	Burst(func() bool {
		Settle()
		assert.Equal(t, -1, debug.SetGCPercent(-1), "a burst's phase is not settled")
		return true
	})
	Settle()
	assert.Equal(t, 100, debug.SetGCPercent(100))
	Settle() // nothing to settle
	assert.Equal(t, 100, debug.SetGCPercent(100))
}

func TestABurstKeepsALowerMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(64 << 20))
	var limit int64
	Burst(func() bool { limit = debug.SetMemoryLimit(-1); return true })
	assert.Equal(t, int64(64<<20), limit)
	Settle()
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
	Settle()
	assert.Equal(t, 100, debug.SetGCPercent(100))
}
