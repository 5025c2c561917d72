package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEnvCollectsEffects(t *testing.T) {
	var e Env
	e.Reset(1, 7, []string{"A", "B", "C"}, nil, false)
	e.SendToOthers(Message{Kind: "marker"})
	e.Send(0, Message{Kind: "transfer", Value: 5})
	e.SetTimer("t", 3)
	e.CancelTimer("u")
	e.Mark(MarkRecord, 2, "x")
	e.Explain("%s does %d things", e.Name(e.Self()), 3)
	assert.Equal(t, NodeID(1), e.Self())
	assert.Equal(t, 3, e.N())
	assert.Equal(t, Time(7), e.Now())
	assert.Equal(t, []Send{{To: 0, Msg: Message{Kind: "marker"}}, {To: 2, Msg: Message{Kind: "marker"}}, {To: 0, Msg: Message{Kind: "transfer", Value: 5}}}, e.Sends)
	assert.Equal(t, []TimerRequest{{Tag: "t", After: 3}, {Tag: "u", Cancel: true}}, e.Timers)
	assert.Equal(t, []Mark{{Kind: MarkRecord, Group: 2, Text: "x"}}, e.Marks)
	assert.Equal(t, "B does 3 things", e.Caption)

	e.Reset(2, 8, []string{"A", "B", "C"}, nil, false)
	assert.Empty(t, e.Sends)
	assert.Empty(t, e.Timers)
	assert.Empty(t, e.Marks)
	assert.Empty(t, e.Caption)
}

func TestSpecLookups(t *testing.T) {
	s := &Spec{
		Kinds:    []KindSpec{{Name: "transfer", Role: RoleMessage, Application: true}, {Name: "marker", Role: RoleMarker}},
		Commands: []CommandSpec{{Name: "snapshot"}, {Name: "transfer", Target: true, Arg: "amount"}},
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
	e.Reset(0, 1, []string{"A", "B"}, nil, true)
	e.Explain("A does %d things", 3)
	e.Send(1, Message{Kind: "x"})
	assert.Empty(t, e.Caption, "a replayed step needs no caption")
	assert.Len(t, e.Sends, 1, "but its effects still happen")
}
