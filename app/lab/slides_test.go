package lab_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"spacetime/app/lab"
)

// A deck's messages are read strictly: what is meant for Spacetime and
// well formed is acted on, what is meant for it and is not is refused
// with the field named, and another tool's messages are not Spacetime's.
func TestSlideMessages(t *testing.T) {
	good := []struct {
		msg  string
		want lab.SlideCommand
	}{
		{`{"spacetime": 1, "do": "next"}`, lab.SlideCommand{Do: "next"}},
		{`{"spacetime": 1, "do": "goto", "step": 12}`, lab.SlideCommand{Do: "goto", Step: 12}},
		{`{"spacetime": 1, "do": "load", "lesson": "token-ring-crash"}`, lab.SlideCommand{Do: "load", Link: url.Values{"s": {"token-ring-crash"}}}},
		{`{"spacetime": 1, "do": "load", "link": "https://example.org/spacetime/?s=snapshot-bank&k=40#x"}`, lab.SlideCommand{Do: "load", Link: url.Values{"s": {"snapshot-bank"}, "k": {"40"}}}},
		{`{"spacetime": 1, "do": "load", "link": "?s=split-brain"}`, lab.SlideCommand{Do: "load", Link: url.Values{"s": {"split-brain"}}}},
		{`{"spacetime": 1, "do": "text", "size": "XL"}`, lab.SlideCommand{Do: "text", Value: "XL"}},
		{`{"spacetime": 1, "do": "theme", "theme": "dark"}`, lab.SlideCommand{Do: "theme", Value: "dark"}},
		{`{"spacetime": 1, "do": "state"}`, lab.SlideCommand{Do: "state"}},
	}
	for _, tc := range good {
		cmd, ours, err := lab.DecodeSlideMessage([]byte(tc.msg))
		require.NoError(t, err, tc.msg)
		assert.True(t, ours, tc.msg)
		assert.Equal(t, tc.want, cmd, tc.msg)
	}
	for _, msg := range []string{`{"namespace": "reveal", "eventName": "slidechanged"}`, `"next"`, `42`, `not json`, `[1, 2]`, `null`} {
		_, ours, err := lab.DecodeSlideMessage([]byte(msg))
		assert.False(t, ours, msg)
		assert.NoError(t, err, msg)
	}
	bad := []struct{ msg, field, want string }{
		{`{"spacetime": 2, "do": "next"}`, "spacetime", "want 1"},
		{`{"spacetime": "1", "do": "next"}`, "spacetime", "want a whole number, got a JSON string"},
		{`{"spacetime": 1}`, "do", "missing"},
		{`{"spacetime": 1, "do": "jump"}`, "do", `got "jump"`},
		{`{"spacetime": 1, "do": "goto"}`, "step", "from 0 up"},
		{`{"spacetime": 1, "do": "goto", "step": -3}`, "step", "from 0 up"},
		{`{"spacetime": 1, "do": "goto", "step": 1.5}`, "step", "whole number"},
		{`{"spacetime": 1, "do": "next", "step": 3}`, "step", `"next" takes no step`},
		{`{"spacetime": 1, "do": "load"}`, "lesson", "one of them"},
		{`{"spacetime": 1, "do": "load", "lesson": "a", "link": "?s=b"}`, "lesson", "one of them"},
		{`{"spacetime": 1, "do": "load", "link": "?s=%zz"}`, "link", `want a link or its query ("?s=snapshot-bank&k=40"): link parameter "s": "%zz" is not a valid escape`},
		{`{"spacetime": 1, "do": "text", "size": "huge"}`, "size", "S, M, L, XL"},
		{`{"spacetime": 1, "do": "theme", "theme": "blue"}`, "theme", "light, dark, colour-blind"},
		{`{"spacetime": 1, "do": "next", "colour": "red"}`, "colour", "unknown field"},
		{`{"spacetime": 1, "do": "next", "lesson": "x"}`, "lesson", `"next" takes no lesson`},
	}
	for _, tc := range bad {
		_, ours, err := lab.DecodeSlideMessage([]byte(tc.msg))
		assert.True(t, ours, tc.msg)
		require.Error(t, err, tc.msg)
		assert.Contains(t, err.Error(), `"`+tc.field+`"`, tc.msg)
		assert.Contains(t, err.Error(), tc.want, tc.msg)
	}
	huge := `{"spacetime": 1, "do": "load", "link": "` + strings.Repeat("a", lab.MaxSlideMessage) + `"}`
	_, ours, err := lab.DecodeSlideMessage([]byte(huge))
	assert.True(t, ours)
	assert.ErrorContains(t, err, "at most")
}

// Whatever a message holds, reading it neither panics nor accepts what a
// page cannot act on.
func FuzzDecodeSlideMessage(f *testing.F) {
	for _, s := range []string{`{"spacetime": 1, "do": "next"}`, `{"spacetime": 1, "do": "goto", "step": 3}`, `{"spacetime": 1, "do": "load", "link": "?s=snapshot-bank&k=4"}`, `{"spacetime": 1, "do": "text", "size": "L"}`, `{"x": 1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cmd, ours, err := lab.DecodeSlideMessage(data)
		if err != nil || !ours {
			return
		}
		assert.Contains(t, lab.SlideCommands, cmd.Do)
		assert.GreaterOrEqual(t, cmd.Step, 0)
		if cmd.Do == "load" {
			assert.NotNil(t, cmd.Link)
		}
	})
}

// A link may name the one origin whose slides drive the page; it is read
// strictly and kept in the link.
func TestOriginParameter(t *testing.T) {
	for _, o := range []string{"https://slides.example.org", "http://127.0.0.1:8000/", "null"} {
		p, err := lab.PageFromQuery(url.Values{"s": {"snapshot-bank"}, "origin": {o}}, false)
		require.NoError(t, err, o)
		assert.Equal(t, strings.TrimSuffix(o, "/"), p.Origin)
		assert.Equal(t, p.Origin, p.Query().Get("origin"), "kept in the link")
	}
	for _, o := range []string{"slides.example.org", "https://slides.example.org/deck.html", "https://x.org/?a=1", "javascript:alert(1)", "https://user@x.org"} {
		_, err := lab.PageFromQuery(url.Values{"s": {"snapshot-bank"}, "origin": {o}}, false)
		require.Error(t, err, o)
		assert.Contains(t, err.Error(), `link parameter "origin"`, o)
	}
}
