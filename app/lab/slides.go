package lab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// A slide deck drives an embedded page by postMessage: it sends JSON
// objects that carry "spacetime": 1, the protocol's version, and what to
// do; the page answers each with its state (or an error) and announces
// every step change to its parent. Messages without the "spacetime" field
// are another tool's (a slide framework talks to its frames too) and are
// ignored.

// MaxTourStop is the largest stop a message may name: a tour's stops are
// checked by the page, which knows the lesson's.
const MaxTourStop = 1000

// SlideVersion is the version of the postMessage protocol a message carries
// in its "spacetime" field.
const SlideVersion = 1

// MaxSlideMessage bounds a message's size (a link with a whole scenario
// packed in it fits).
const MaxSlideMessage = 64 << 10

// SlideCommands are what a message can ask, in its "do" field.
var SlideCommands = []string{"next", "prev", "goto", "first", "last", "play", "pause", "load", "text", "theme", "state", "tour"}

// SlideCommand is a message from a slide deck, checked.
type SlideCommand struct {
	// Do is one of SlideCommands.
	Do string
	// Step is the step to go to (goto).
	Step int
	// Link is the link to open (load): a built-in lesson's id becomes
	// "s=ID"; a link's query is kept as it is.
	Link url.Values
	// Value is the text size (text) or theme (theme) to set.
	Value string
	// Stop is the stop of the lesson's tour to go to (tour; 0 ends it).
	Stop int
}

// slideMessage is a message as sent.
type slideMessage struct {
	Spacetime *int    `json:"spacetime"`
	Do        *string `json:"do"`
	Step      *int    `json:"step,omitempty"`
	Lesson    *string `json:"lesson,omitempty"`
	Link      *string `json:"link,omitempty"`
	Size      *string `json:"size,omitempty"`
	Theme     *string `json:"theme,omitempty"`
	Stop      *int    `json:"stop,omitempty"`
}

// DecodeSlideMessage reads a message a page received (JSON): ours says
// whether it is meant for Spacetime at all; an error says, in plain
// words naming the field, why a message meant for it cannot be acted on.
func DecodeSlideMessage(data []byte) (cmd SlideCommand, ours bool, err error) {
	if len(data) > MaxSlideMessage {
		// too large to read, so whose it is cannot be told: not acted on
		return cmd, bytes.Contains(data[:min(len(data), 64)], []byte(`"spacetime"`)), fmt.Errorf("message: at most %d bytes, got %d", MaxSlideMessage, len(data))
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return cmd, false, nil // not an object: not ours
	}
	if _, ok := probe["spacetime"]; !ok {
		return cmd, false, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m slideMessage
	if err := dec.Decode(&m); err != nil {
		return cmd, true, fmt.Errorf("message: %s", plainJSONError(err))
	}
	if m.Spacetime == nil || *m.Spacetime != SlideVersion {
		return cmd, true, fmt.Errorf(`field "spacetime": want %d, the protocol's version`, SlideVersion)
	}
	if m.Do == nil {
		return cmd, true, fmt.Errorf(`field "do": missing; want one of %s`, strings.Join(SlideCommands, ", "))
	}
	cmd.Do = *m.Do
	if !slices.Contains(SlideCommands, cmd.Do) {
		return cmd, true, fmt.Errorf(`field "do": want one of %s, got %q`, strings.Join(SlideCommands, ", "), clip(cmd.Do))
	}
	// each command takes its own fields and no other
	takes := map[string]string{"goto": "step", "load": "lesson or link", "text": "size", "theme": "theme", "tour": "stop"}
	given := map[string]bool{"step": m.Step != nil, "lesson": m.Lesson != nil, "link": m.Link != nil, "size": m.Size != nil, "theme": m.Theme != nil, "stop": m.Stop != nil}
	for _, f := range []string{"step", "lesson", "link", "size", "theme", "stop"} {
		if given[f] && !strings.Contains(takes[cmd.Do], f) {
			return cmd, true, fmt.Errorf("field %q: %q takes no %s", f, cmd.Do, f)
		}
	}
	switch cmd.Do {
	case "goto":
		if m.Step == nil || *m.Step < 0 {
			return cmd, true, fmt.Errorf(`field "step": "goto" takes a step number from 0 up`)
		}
		cmd.Step = *m.Step
	case "load":
		switch {
		case (m.Lesson == nil) == (m.Link == nil):
			return cmd, true, fmt.Errorf(`field "lesson" or "link": "load" takes one of them`)
		case m.Lesson != nil:
			cmd.Link = url.Values{"s": {*m.Lesson}}
		default:
			// read as the address bar's link is, and refused in its words
			q, err := ParseLinkQuery(strings.TrimPrefix(linkQuery(*m.Link), "?"))
			if err != nil {
				return cmd, true, fmt.Errorf(`field "link": want a link or its query ("?s=snapshot-bank&k=40"): %v`, err)
			}
			cmd.Link = q
		}
	case "tour":
		cmd.Stop = 1
		if m.Stop != nil {
			if *m.Stop < 0 || *m.Stop > MaxTourStop {
				return cmd, true, fmt.Errorf(`field "stop": "tour" takes a stop of the lesson's tour from 1 (0 ends the tour), got %d`, *m.Stop)
			}
			cmd.Stop = *m.Stop
		}
	case "text":
		if m.Size == nil || !slices.Contains(TextSizes, *m.Size) {
			return cmd, true, fmt.Errorf(`field "size": want one of %s`, strings.Join(TextSizes, ", "))
		}
		cmd.Value = *m.Size
	case "theme":
		if m.Theme == nil || !slices.Contains(Themes, *m.Theme) {
			return cmd, true, fmt.Errorf(`field "theme": want one of %s`, strings.Join(Themes, ", "))
		}
		cmd.Value = *m.Theme
	}
	return cmd, true, nil
}

// linkQuery is the query of a link, whole ("https://…/?s=…") or its query
// alone.
func linkQuery(link string) string {
	if i := strings.IndexByte(link, '?'); i >= 0 {
		link = link[i+1:]
	}
	if i := strings.IndexByte(link, '#'); i >= 0 {
		link = link[:i]
	}
	return link
}

// plainJSONError says what is wrong with a message's JSON without Go's
// type names.
func plainJSONError(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := map[string]string{"int": "a whole number", "string": "text"}[te.Type.Kind().String()]
		if want == "" {
			want = te.Type.Kind().String()
		}
		return fmt.Sprintf("field %q: want %s, got a JSON %s", te.Field, want, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// SlideState is what the page answers a message with, and announces to its
// parent at every step change.
type SlideState struct {
	Spacetime int    `json:"spacetime"`
	Event     string `json:"event"` // "state" or "error"
	Error     string `json:"error,omitempty"`
	Lesson    string `json:"lesson,omitempty"`
	Title     string `json:"title,omitempty"`
	Step      int    `json:"step"`
	Steps     int    `json:"steps"`
	Caption   string `json:"caption,omitempty"`
	Verdict   string `json:"verdict,omitempty"`
	Playing   bool   `json:"playing"`
	// Stop is the stop of the lesson's tour the page is at, from 1 (0: no
	// tour under way), Stops how many the tour has, and Narration the
	// stop's words.
	Stop      int    `json:"stop,omitempty"`
	Stops     int    `json:"stops,omitempty"`
	Narration string `json:"narration,omitempty"`
	// Ready marks the page's first state since it loaded (sent when it is
	// ready), which a deck answers by putting the lesson at its slide's
	// step: a slide's frame may load again when the slide is re-entered.
	Ready bool `json:"ready,omitempty"`
}
