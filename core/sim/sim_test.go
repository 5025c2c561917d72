package sim

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/core/clock"
	"spacetime/core/strictjson"
)

func TestEnvCollectsEffects(t *testing.T) {
	var e Env
	e.Reset(Context{Self: 1, Now: 7, Local: 12, Names: []string{"A", "B", "C"}, Lamport: 4, Vector: clock.Vector{1, 2, 0}})
	e.SendToOthers(Message{Kind: "marker"})
	e.Send(0, Message{Kind: "transfer", Value: 5})
	e.SetTimer("t", 3)
	e.CancelTimer("u")
	e.Annotate(At("recorded", 2, "x"), Opens("critical-section", 1, "in").To(2), Closes("waiting", 1).About(9))
	e.Explain("%s does %d things", e.Name(e.Self()), 3)
	assert.Equal(t, NodeID(1), e.Self())
	assert.Equal(t, 3, e.N())
	assert.Equal(t, Time(7), e.Now())
	assert.Equal(t, Time(12), e.LocalTime(), "the node's own clock, skew included")
	assert.Equal(t, clock.Lamport(4), e.Lamport())
	assert.Equal(t, clock.Vector{1, 2, 0}, e.Vector())
	assert.Equal(t, []Send{{To: 0, Msg: Message{Kind: "marker"}}, {To: 2, Msg: Message{Kind: "marker"}}, {To: 0, Msg: Message{Kind: "transfer", Value: 5}}}, e.Effects().Sends)
	assert.Equal(t, []TimerRequest{{Tag: "t", After: 3}, {Tag: "u", Cancel: true}}, e.Effects().Timers)
	assert.Equal(t, []Annotation{
		{Role: "recorded", Phase: Point, Group: 2, Peer: None, Msg: None, Text: "x"},
		{Role: "critical-section", Phase: Begin, Group: 1, Peer: 2, Msg: None, Text: "in"},
		{Role: "waiting", Phase: End, Group: 1, Peer: None, Msg: 9},
	}, e.Effects().Annotations)
	assert.Equal(t, "B does 3 things", e.Effects().Caption)

	e.Reset(Context{Self: 2, Now: 8, Local: 8, Names: []string{"A", "B", "C"}})
	assert.Empty(t, e.Effects().Sends)
	assert.Empty(t, e.Effects().Timers)
	assert.Empty(t, e.Effects().Annotations)
	assert.Empty(t, e.Effects().Caption)
}

func TestExplainMoreAddsAClause(t *testing.T) {
	var e Env
	e.Reset(Context{Self: 0, Names: []string{"A", "B"}})
	e.Explain("A wins the election")
	e.ExplainMore("it sends its request #%d again, to %s", 2, "B")
	assert.Equal(t, "A wins the election; it sends its request #2 again, to B", e.Effects().Caption)

	e.Reset(Context{Self: 0, Names: []string{"A", "B"}, Quiet: true})
	e.Explain("A wins the election")
	e.ExplainMore("it sends its request again")
	assert.Empty(t, e.Effects().Caption, "a replayed step needs no caption")
}

func TestSpecLookups(t *testing.T) {
	s := &Spec{
		Kinds: []KindSpec{{Name: "transfer", Role: RoleMessage, Application: true}, {Name: "marker", Role: RoleMarker}},
		Learner: LearnerSpec{
			Commands: []CommandSpec{{Name: "snapshot"}, {Name: "transfer", Target: true, Arg: "amount"}},
		},
	}
	k, ok := s.Kind("marker")
	assert.True(t, ok)
	assert.Equal(t, RoleMarker, k.Role)
	_, ok = s.Kind("token")
	assert.False(t, ok)
	c, ok := s.Command("transfer")
	assert.True(t, ok)
	assert.True(t, c.Target)
	_, ok = s.Command("explode")
	assert.False(t, ok)
}

func TestEventKindNames(t *testing.T) {
	tests := map[EventKind]string{Init: "init", Deliver: "deliver", Timer: "timer", Command: "command",
		Recover: "recover", Workload: "workload", EventKind(99): "unknown"}
	for k, want := range tests {
		assert.Equal(t, want, k.String())
	}
}

func TestQuietEnvSkipsTheCaption(t *testing.T) {
	var e Env
	e.Reset(Context{Self: 0, Now: 1, Names: []string{"A", "B"}, Quiet: true})
	e.Explain("A does %d things", 3)
	e.Send(1, Message{Kind: "x"})
	assert.Empty(t, e.Effects().Caption, "a replayed step needs no caption")
	assert.Len(t, e.Effects().Sends, 1, "but its effects still happen")
}

func TestNamesAndNumbers(t *testing.T) {
	assert.Equal(t, []string{"A", "B", "C"}, LetterNames(3))
	assert.Equal(t, "AA", LetterNames(27)[26])
	assert.Equal(t, []string{"1", "2", "3"}, NumberNames(3))
	assert.Equal(t, 1, NodeID(0).Number(), "people count processes from 1")
	assert.Equal(t, []string{"1", "2"}, (&Spec{DefaultNames: NumberNames}).Names(2))
	assert.Equal(t, []string{"A", "B"}, (&Spec{}).Names(2))
	var e Env
	e.Reset(Context{Self: 0, Names: []string{"A", "B"}})
	assert.Equal(t, "B", NameOrNobody(&e, 1))
	assert.Equal(t, "nobody", NameOrNobody(&e, None), "a field that names no process")
}

func TestPhaseText(t *testing.T) {
	for _, p := range []Phase{Point, Begin, End} {
		b, err := p.MarshalText()
		require.NoError(t, err)
		var q Phase
		require.NoError(t, q.UnmarshalText(b))
		assert.Equal(t, p, q)
	}
	var q Phase
	assert.Error(t, q.UnmarshalText([]byte("middle")))
}

func TestTopologies(t *testing.T) {
	c := Complete(4)
	assert.Len(t, c.Edges, 6, "every pair once")
	r := RingOf([]NodeID{2, 0, 1})
	assert.Equal(t, [][2]NodeID{{2, 0}, {0, 1}, {1, 2}}, r.Edges, "each sends to the next, the last to the first")
	assert.True(t, r.Directed)
}

// params is an algorithm's params for the decoding tests.
type params struct {
	Balances    []int64          `json:"balances"`
	MaxTransfer int64            `json:"max_transfer"`
	Fencing     bool             `json:"fencing"`
	Sets        [][]int          `json:"sets"`
	Ring        []uint16         `json:"ring"`
	Lease       *Time            `json:"lease"`
	Names       map[string]int32 `json:"names"`
}

func TestDecodeParams(t *testing.T) {
	tests := []struct {
		name, raw, err string
	}{
		{name: "empty keeps the defaults", raw: ``},
		{name: "null keeps the defaults", raw: `null`},
		{name: "fields", raw: `{"balances": [1, 2], "max_transfer": 9, "fencing": true, "sets": [[1, 2], [2, 3]], "lease": 10}`},
		{name: "unknown field", raw: `{"balance": [1]}`, err: `field "params.balance": unknown field (known here: balances, fencing, lease, max_transfer, names, ring, sets)`},
		{name: "text for a number", raw: `{"max_transfer": "x"}`, err: `field "params.max_transfer": want a whole number, got text "x"`},
		{name: "fraction for a whole number", raw: `{"max_transfer": 1.5}`, err: `want a whole number, got the number 1.5`},
		{name: "too large", raw: `{"max_transfer": 9223372036854775808}`, err: `want a whole number from -9223372036854775808 to 9223372036854775807`},
		{name: "deep path", raw: `{"sets": [[1, 2], [2, "three"]]}`, err: `field "params.sets[1][1]": want a whole number, got text "three"`},
		{name: "list for a flag", raw: `{"fencing": [true]}`, err: `field "params.fencing": want true or false, got a list`},
		{name: "negative for unsigned", raw: `{"ring": [1, -2]}`, err: `field "params.ring[1]": want a whole number of 0 or more, got -2`},
		{name: "object for a list", raw: `{"balances": {"a": 1}}`, err: `want a list, got an object`},
		{name: "map values", raw: `{"names": {"a": "b"}}`, err: `field "params.names.a": want a whole number, got text "b"`},
		{name: "not JSON", raw: `{"balances": [1, 2}`, err: `not valid JSON at line 1, column 19`},
		{name: "ends early", raw: `{"balances": [1, 2]`, err: `the document ends early`},
		{name: "goes on after its end", raw: `{"balances": [1]} {"fencing": true}`, err: `there is more after the end of the params, at line 1, column 19`},
		{name: "a list, not an object", raw: `[1, 2]`, err: `field "params": want an object, got a list`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := params{MaxTransfer: 20}
			err := DecodeParams(json.RawMessage(tt.raw), &p)
			if tt.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
			var fe *strictjson.FieldError
			assert.ErrorAs(t, err, &fe)
		})
	}
	p := params{MaxTransfer: 20}
	require.NoError(t, DecodeParams(json.RawMessage(`{"balances": [5]}`), &p))
	assert.Equal(t, int64(20), p.MaxTransfer, "a field left out keeps its default")
	assert.Equal(t, []int64{5}, p.Balances)
}

// A wall clock set off by a skew and running at a rate reads what a clock
// on the wall would: never backwards while its rate holds, rounded down.
func TestWallClockReads(t *testing.T) {
	var right WallClock
	assert.Equal(t, Time(7), right.Reads(7))
	assert.Equal(t, int64(100), right.Rate())

	ahead := right.Skewed(4, 5)
	assert.Equal(t, Time(15), ahead.Reads(10))

	half := ahead.Rated(10, 50) // reads 15 at time 10, then half a tick a tick
	assert.Equal(t, []Time{15, 15, 16, 16, 17}, []Time{half.Reads(10), half.Reads(11), half.Reads(12), half.Reads(13), half.Reads(14)})
	assert.Equal(t, int64(50), half.Rate())

	stopped := half.Rated(14, 0)
	assert.Equal(t, Time(17), stopped.Reads(1000))

	fast := stopped.Rated(1000, 250)
	assert.Equal(t, Time(17+25), fast.Reads(1010))

	back := fast.Skewed(1010, -3) // a step keeps the rate
	assert.Equal(t, Time(1007), back.Reads(1010))
	assert.Equal(t, Time(1007+5), back.Reads(1012))
}
