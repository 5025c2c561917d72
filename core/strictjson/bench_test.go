package strictjson_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"spacetime/core/algo/logreplay"
	"spacetime/core/strictjson"
)

// BenchmarkDecodeLarge decodes a large document strictly: the
// params of a log of 100,000 events among three hosts, as a log's import
// writes them (6.6 MB).
func BenchmarkDecodeLarge(b *testing.B) {
	type params struct {
		Events [][]logreplay.Event `json:"events"`
	}
	var p params
	names := []string{"A", "B", "C"}
	for h := range names {
		var evs []logreplay.Event
		for i := range 100_000 / len(names) {
			e := logreplay.Event{Text: fmt.Sprintf("workload: %s sends $%d to %s; %s now holds $%d", names[h], i%20, names[(h+1)%3], names[h], 100+i%50)}
			switch i % 3 {
			case 1:
				e.To = []string{names[(h+1)%3]}
			case 2:
				e.From = names[(h+2)%3]
			}
			evs = append(evs, e)
		}
		p.Events = append(p.Events, evs)
	}
	data, err := json.Marshal(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		var v params
		if err := strictjson.Decode(data, &v, "params"); err != nil {
			b.Fatal(err)
		}
	}
}
