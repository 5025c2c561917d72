package ringelection_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"spacetime/internal/algotest"
)

// Collecting every id takes 2N messages wherever the starter stands, and
// 2N² when everyone starts; the highest id wins either way.
func TestCollectingEveryID(t *testing.T) {
	for n := 3; n <= 8; n++ {
		for starter := 1; starter <= n; starter++ {
			r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "ring-election", "n": %d, "params": {"collect_ids": true}, "script": [{"at": 1, "node": %d, "command": "start-election"}], "until": {"quiescent": true}}`, n, starter))
			assert.Empty(t, algotest.Failed(r))
			m := algotest.Metrics(r)
			assert.Equal(t, 2*n, m["election_messages"], "n=%d, %d starts", n, starter)
			assert.Equal(t, fmt.Sprint(n), m["leader"])
		}
		script := ""
		for i := 1; i <= n; i++ {
			script += fmt.Sprintf(`{"at": 1, "node": %d, "command": "start-election"},`, i)
		}
		r := algotest.Run(t, fmt.Sprintf(`{"algorithm": "ring-election", "n": %d, "params": {"collect_ids": true}, "script": [%s], "until": {"quiescent": true}}`, n, script[:len(script)-1]))
		assert.Empty(t, algotest.Failed(r))
		assert.Equal(t, 2*n*n, algotest.Metrics(r)["election_messages"], "n=%d, all start", n)
		assert.Equal(t, fmt.Sprint(n), algotest.Metrics(r)["leader"])
	}
}
