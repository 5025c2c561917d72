package ui

import (
	"encoding/json"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"spacetime/app/lab"
)

// slideBridge is the page's side of a slide deck's postMessage
// protocol. It renders nothing: its listener is on the window.
type slideBridge struct {
	*state
}

// A slide deck drives a framed page by postMessage (lab.DecodeSlideMessage):
// the page acts on each message meant for it, answers with its state or an
// error, and announces every change of its state to its parent. With the
// link's origin parameter, only that origin's messages are read and the
// announcements go to it alone.

// listenToSlides starts listening to the parent's messages, in a framed
// page.
func (c *slideBridge) listenToSlides() {
	js := app.Window().Get("spacetime")
	if c.onMessage != nil || !js.Truthy() || !js.Get("framed").Truthy() || !js.Call("framed").Bool() {
		return
	}
	// read counts the messages the page has read, obeyed or ignored, on
	// window.spacetimeSlideMessages: a test sees a message was ignored
	// rather than waiting to see nothing happen
	read := 0
	c.onMessage = app.FuncOf(func(_ app.Value, args []app.Value) any {
		read++
		app.Window().Set("spacetimeSlideMessages", read)
		if len(args) == 0 {
			return nil
		}
		e := args[0]
		origin := e.Get("origin").String()
		if c.page != nil && c.page.Origin != "" && origin != c.page.Origin {
			return nil // not the slides the link names
		}
		data := e.Get("data")
		text := data.String()
		if data.Type() != app.TypeString {
			text = app.Window().Get("JSON").Call("stringify", data).String()
		}
		cmd, ours, err := lab.DecodeSlideMessage([]byte(text))
		if !ours {
			return nil
		}
		c.ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				c.tellSlides(lab.SlideState{Spacetime: lab.SlideVersion, Event: "error", Error: err.Error()}, origin)
				return
			}
			if err := c.obey(ctx, cmd); err != nil {
				c.tellSlides(lab.SlideState{Spacetime: lab.SlideVersion, Event: "error", Error: err.Error()}, origin)
				return
			}
			c.tellSlides(c.slideState(), origin)
		})
		return nil
	})
	app.Window().Call("addEventListener", "message", c.onMessage)
}

// obey does what a slide deck asks, to the pane with the focus.
func (c *slideBridge) obey(ctx app.Context, cmd lab.SlideCommand) error {
	if c.page == nil && cmd.Do != "load" {
		return fmt.Errorf("do: the page shows the course's index, with no lesson to %s; send \"load\" with a lesson's link first", cmd.Do)
	}
	i := min(max(c.focus, 0), len(c.panes)-1)
	switch cmd.Do {
	case "next", "prev", "first", "last", "goto":
		c.stopPlaying(i)
		switch cmd.Do {
		case "next":
			if c.tourOf(i).touring() {
				c.tourOf(i).nextStop(ctx)
			} else {
				c.controlsOf(i).forward(ctx)
			}
		case "prev":
			if c.tourOf(i).touring() {
				c.tourOf(i).prevStop(ctx)
			} else {
				c.controlsOf(i).back(ctx)
			}
		case "first":
			c.controlsOf(i).home(ctx)
		case "last":
			c.controlsOf(i).end(ctx)
		default:
			k := min(cmd.Step, c.page.Len(i))
			c.controlsOf(i).step(ctx, func() { c.page.Seek(i, k) })
		}
	case "tour":
		return c.tourOf(i).goToStop(ctx, cmd.Stop)
	case "play":
		if !c.playing(i) {
			c.controlsOf(i).togglePlay(ctx)
		}
	case "pause":
		c.stopPlaying(i)
	case "load":
		page, err := lab.PageFromQuery(cmd.Link, false)
		if err != nil {
			return err
		}
		for _, p := range c.panes {
			p.playing = false
		}
		// the deck's looks and origin stay unless the link sets its own
		if c.page == nil {
			c.setPage(page)
			c.focus, c.problem = 0, ""
			c.changed(ctx)
			return nil
		}
		if page.Text == "" {
			page.Text = c.page.Text
		}
		if page.Theme == "" {
			page.Theme = c.page.Theme
		}
		if page.Origin == "" {
			page.Origin = c.page.Origin
		}
		c.setPage(page)
		c.focus, c.problem = 0, ""
		c.changed(ctx)
	case "text":
		c.page.Text = cmd.Value
		c.changed(ctx)
	case "theme":
		c.page.Theme = cmd.Value
		if cmd.Value == "light" {
			c.page.Theme = ""
		}
		c.changed(ctx)
	}
	return nil
}

// slideState is what the page tells its slides: the focused pane's lesson,
// step, caption and verdict.
func (c *slideBridge) slideState() lab.SlideState {
	i := min(max(c.focus, 0), len(c.panes)-1)
	s := c.sess(i)
	verdict, _ := s.Verdicts().Text()
	st := lab.SlideState{Spacetime: lab.SlideVersion, Event: "state", Lesson: s.Scenario().ID, Title: s.Scenario().Title,
		Step: c.page.Position(i), Steps: c.page.Len(i), Caption: c.page.Caption(i), Verdict: verdict, Playing: c.playing(i)}
	if n := s.Tour().Stop(); n > 0 {
		tour := s.Tour().Stops()
		st.Stop, st.Stops, st.Narration = n, len(tour), tour[n-1].Say
	}
	return st
}

// announce tells the slides the page's state when it changed, in a framed
// page.
func (c *slideBridge) announce() {
	if c.onMessage == nil || c.page == nil || len(c.panes) == 0 {
		return
	}
	st := c.slideState()
	if st == c.announced {
		return
	}
	first := c.announced == (lab.SlideState{})
	c.announced = st
	// the first state since the page loaded says so: a deck puts a lesson
	// that has (re)loaded at its slide's step
	st.Ready = first
	c.tellSlides(st, c.page.Origin)
}

// tellSlides posts a state or an error to the parent, at origin ("" or
// "null": any, since a page opened from disk has no origin to name).
func (c *slideBridge) tellSlides(st lab.SlideState, origin string) {
	data, err := json.Marshal(st)
	if err != nil {
		return
	}
	if origin == "null" {
		origin = ""
	}
	app.Window().Get("spacetime").Call("tellParent", string(data), origin)
}
