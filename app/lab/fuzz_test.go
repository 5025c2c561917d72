package lab

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"io"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"spacetime/app/diagram"
	"spacetime/core/engine"
	"spacetime/core/faults"
	"spacetime/core/scenario"
	"spacetime/internal/fuzzcheck"
)

// The fuzz targets of this file read what a link says: the whole query
// (FuzzPageFromQuery), its input log in= (FuzzDecodeInputs), its cut=
// (FuzzCut) and its packed scenario sc= (FuzzPackedScenario), and the
// windows that zooming and panning write into it (FuzzZoomPan). Each opens
// what it decoded as the page would and lays out every view (checkPage),
// so that a link whose layout loops or panics is found: /?at=1e308 used to
// make the diagram's tick loop spin forever.
//
// One input's work is bounded (boundLink): a link's scenario whose run may
// be long is opened with its until.steps capped, so that an input costs
// milliseconds, not the seconds of a million-step run.

// FuzzPageFromQuery checks PageFromQuery on any query string, as the server
// and the page read the address bar (ParseLinkQuery), for / and for
// /compare.
//
//   - ParseLinkQuery refuses only what url.ParseQuery refuses, in plain
//     words, and otherwise keeps exactly what url.ParseQuery keeps (a
//     tracker's setting that does not parse is left out alike).
//   - Nothing panics or hangs, whatever the link.
//   - A refusal is in plain words (no Go type or package names), at most
//     maxLinkError bytes, and echoes no long piece of the link.
//   - An opened page is coherent (steps within runs, selections on screen,
//     one cut point per process), every view lays out (the page's window
//     and its own, at two sizes, hit-tested; the process graph; legend,
//     panels, captions, report, SVG), at the linked step and at the end.
//   - The page's own link opens again to the same link.
//   - Within a budget of work (PageFromQueryWithin, as the server's
//     prerender opens links), the link opens to the same page or gives the
//     same refusal, or says ErrTooMuchWork.
func FuzzPageFromQuery(f *testing.F) {
	for _, raw := range apiLinks(f) {
		f.Add(raw, false)
	}
	f.Add("", true)
	for _, raw := range []string{"v=2&s=snapshot-bank&k=%zz", "v=2&s=snapshot-bank;k=3", "v=2&utm=50%&s=snapshot-bank", "v=2&s=snapshot-nonfifo&tour=1&tour=2", "v=2&s=snapshot-bank&in=5%C3%A91", "v=1&s=snapshot-bank&in=5c9223372036854775807"} {
		f.Add(raw, false)
	}
	f.Fuzz(func(t *testing.T, raw string, compare bool) {
		defer fuzzcheck.Watchdog(raw)()
		q, err := ParseLinkQuery(raw)
		kept, goErr := url.ParseQuery(raw)
		switch {
		case err != nil && goErr == nil:
			t.Fatalf("ParseLinkQuery refuses what url.ParseQuery reads: %v", err)
		case err != nil:
			fuzzcheck.PlainError(t, err.Error(), raw, maxLinkError)
			return
		case !reflect.DeepEqual(q, kept):
			t.Fatalf("ParseLinkQuery keeps %v, url.ParseQuery %v", q, kept)
		}
		q, input, ok := boundLink(q)
		if !ok {
			t.Skip("the link's runs are too long to fuzz")
		}
		p, err := PageFromQuery(q, compare)
		budget := &engine.Budget{Work: int64(100 + len(raw)*37%5000)}
		pb, berr := PageFromQueryWithin(q, compare, budget)
		switch {
		case berr == ErrTooMuchWork:
			if !budget.Exhausted() {
				t.Fatalf("ErrTooMuchWork with %d of %d units of work spent", budget.Used(), budget.Work)
			}
		case (err == nil) != (berr == nil) || (err != nil && err.Error() != berr.Error()):
			t.Fatalf("within a budget the link says %v, without one %v", berr, err)
		case err == nil && EncodeQuery(pb.Query()) != EncodeQuery(p.Query()):
			t.Fatalf("within a budget the link opens another page:\n%s\n%s", EncodeQuery(pb.Query()), EncodeQuery(p.Query()))
		}
		if err != nil {
			fuzzcheck.PlainError(t, err.Error(), raw+"\x00"+input, maxLinkError)
			return
		}
		checkPage(t, p, compare)
	})
}

// FuzzDecodeInputs checks DecodeInputs, the reader of a link's in= (the
// learner's inputs), in today's format and version 1's, and their replay
// on the bank (snapshot-bank, or snapshot-nonfifo whose channels are not
// FIFO) through PageFromQuery.
//
//   - Nothing panics.
//   - A refusal is in plain words of at most maxInputsError bytes, however
//     long in= is (a bad 900 KB in= is not echoed back).
//   - Decoded inputs are at most MaxInputs, at increasing steps within
//     engine.MaxSteps, and round-trip: EncodeInputs writes text that
//     DecodeInputs (today's format) reads back to the same inputs.
//   - Replayed on the lesson, they are refused in plain words, or the page
//     opens with exactly these inputs and lays out (see checkPage).
//   - A refusal quotes what in= says as it says it: an unknown action's
//     letter whole, and a process by the number the link wrote (a version
//     1 link's largest number used to overflow, and its other numbers to
//     be quoted one higher).
func FuzzDecodeInputs(f *testing.F) {
	bank, err := scenario.Builtin("snapshot-bank")
	if err != nil {
		f.Fatal(err)
	}
	spec := bank.Spec()
	for _, in := range []string{"5c9223372036854775807", "5c3", "5é1", "5\xff1", "5l0.0", "5l1.3.1", "5g0~1_1~2", "5ksnapshot.3.0.0", "5ktransfer.0.3.5"} {
		f.Add(in, true, false)
		f.Add(in, false, false)
	}
	f.Fuzz(func(t *testing.T, in string, v1, nonfifo bool) {
		defer fuzzcheck.Watchdog(in)()
		version, v := 2, URLVersion
		if v1 {
			version, v = 1, "1"
		}
		inputs, err := DecodeInputs(in, spec, version)
		if err != nil {
			fuzzcheck.PlainError(t, err.Error(), in, maxInputsError)
			quotesTheInput(t, err.Error(), in)
		} else {
			if len(inputs) > MaxInputs {
				t.Fatalf("%d inputs decoded, more than %d", len(inputs), MaxInputs)
			}
			for i, x := range inputs {
				if x.Step < 0 || x.Step > engine.MaxSteps || (i > 0 && x.Step <= inputs[i-1].Step) {
					t.Fatalf("input %d at step %d: steps must increase from 0", i, x.Step)
				}
			}
			enc := EncodeInputs(inputs)
			back, err := DecodeInputs(enc, spec, 2)
			if err != nil {
				t.Fatalf("%q, written from %q, is refused: %v", enc, in, err)
			}
			if !reflect.DeepEqual(back, inputs) && !(len(back) == 0 && len(inputs) == 0) {
				t.Fatalf("%q reads back as %+v, not %+v (from %q)", enc, back, inputs, in)
			}
		}
		lesson := "snapshot-bank"
		if nonfifo {
			lesson = "snapshot-nonfifo"
		}
		q := url.Values{"v": {v}, "s": {lesson}, "in": {in}}
		p, err := PageFromQuery(q, false)
		if err != nil {
			fuzzcheck.PlainError(t, err.Error(), in, maxInputsError)
			quotesTheInput(t, err.Error(), in)
			return
		}
		if inputs == nil && in != "" {
			t.Fatalf("in=%q is refused, but the page opens with it", in)
		}
		if got := p.Views[0].Run().Inputs(); len(got)+len(inputs) > 0 && !reflect.DeepEqual(got, inputs) {
			t.Fatalf("the page replays %+v, not the inputs decoded, %+v", got, inputs)
		}
		checkPage(t, p, false)
	})
}

var (
	// unknownAction is the letter an error says is no action's.
	unknownAction = regexp.MustCompile(`unknown action ("(?:[^"\\]|\\.)*")`)
	// processNumber is a process an error names by number.
	processNumber = regexp.MustCompile(`\bprocess (?:than )?(-?[0-9]+)`)
)

// quotesTheInput fails t unless an error about in= quotes an unknown
// action's letter, and every process it names by number, as in= says them.
func quotesTheInput(t *testing.T, msg, in string) {
	t.Helper()
	for _, m := range unknownAction.FindAllStringSubmatch(msg, -1) {
		letter, err := strconv.Unquote(m[1])
		if err != nil || !strings.Contains(in, letter) || !utf8.ValidString(letter) && len(letter) != 1 {
			t.Fatalf("the error quotes the action %s, which in= does not say: %s", m[1], msg)
		}
	}
	for _, m := range processNumber.FindAllStringSubmatch(msg, -1) {
		if !strings.Contains(in, m[1]) {
			t.Fatalf("the error names process %s, which in= does not say: %s", m[1], msg)
		}
	}
}

// FuzzCut checks decodeCut, the reader of a link's cut= (the cut tool's
// points), and the page with that cut on the bank at step k, on either axis.
//
//   - Nothing panics.
//   - A refusal is in plain words of at most maxInputsError bytes, however
//     long cut= is.
//   - Decoded points are one per process, each a number or NaN (not placed),
//     never infinite; encoding them and decoding again gives the same
//     encoding.
//   - The page with the cut opens (or refuses in plain words) and lays out,
//     the cut's verdict and text included (see checkPage).
func FuzzCut(f *testing.F) {
	f.Fuzz(func(t *testing.T, cut string, k uint16, lamport bool) {
		defer fuzzcheck.Watchdog(cut)()
		points, err := decodeCut(cut, 3)
		if err != nil {
			fuzzcheck.PlainError(t, err.Error(), cut, maxInputsError)
		} else {
			if len(points) != 3 {
				t.Fatalf("%d points for 3 processes", len(points))
			}
			for _, p := range points {
				if math.IsInf(p, 0) {
					t.Fatalf("an infinite point from %q", cut)
				}
			}
			enc := encodeCut(points)
			back, err := decodeCut(enc, 3)
			if err != nil {
				t.Fatalf("%q, written from %q, is refused: %v", enc, cut, err)
			}
			if again := encodeCut(back); again != enc {
				t.Fatalf("the cut %q encodes as %q, then as %q", cut, enc, again)
			}
		}
		q := url.Values{"v": {URLVersion}, "s": {"snapshot-bank"}, "k": {strconv.Itoa(int(k) % 60)}, "cut": {cut}}
		if lamport {
			q.Set("axis", "lamport")
		}
		p, err := PageFromQuery(q, false)
		if err != nil {
			if points != nil && cut != "" {
				t.Fatalf("cut=%q decodes, but the page refuses it: %v", cut, err)
			}
			fuzzcheck.PlainError(t, err.Error(), cut, maxInputsError)
			return
		}
		if points == nil && cut != "" {
			t.Fatalf("cut=%q is refused, but the page opens with it", cut)
		}
		placed := points != nil
		for _, p := range points {
			placed = placed && !math.IsNaN(p)
		}
		if complete, _ := p.Views[0].Cut().Verdict(); complete != placed {
			t.Fatalf("cut=%q: the verdict says complete=%v", cut, complete)
		}
		checkPage(t, p, false)
	})
}

// FuzzPackedScenario checks a link's packed scenario, sc=: the fuzzed bytes
// are a scenario file's text, packed as the page packs one (raw DEFLATE,
// then base64url), so that the fuzzer explores scenarios through links.
//
//   - Nothing panics.
//   - A packed scenario that inflates past MaxPacked is refused as too
//     large (big pads the text with spaces past it).
//   - Otherwise the link opens exactly when scenario.Parse accepts the text
//     (after bringing a version 1 text up to date): the page's scenario is
//     the one parsed, and it lays out (see checkPage); a refusal names sc=
//     and says what Parse says.
func FuzzPackedScenario(f *testing.F) {
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(s.JSON(), false, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, v1, big bool) {
		defer fuzzcheck.Watchdog(string(data))()
		version, v := 2, URLVersion
		if v1 {
			version, v = 1, "1"
		}
		if big {
			padded := append(append([]byte(nil), data...), bytes.Repeat([]byte(" "), MaxPacked+1)...)
			_, err := PageFromQuery(url.Values{"v": {v}, "sc": {fuzzPack(padded, flate.BestSpeed)}}, false)
			if err == nil || !strings.Contains(err.Error(), "too large") {
				t.Fatalf("a scenario of %d bytes inflated opens: %v", len(padded), err)
			}
			fuzzcheck.PlainError(t, err.Error(), string(data), maxLinkError)
			return
		}
		bounded, _, _, ok := boundScenario(data, version)
		if !ok {
			t.Skip("the scenario's run is too long to fuzz")
		}
		want, perr := parseAs(bounded, version)
		p, err := PageFromQuery(url.Values{"v": {v}, "sc": {fuzzPack(bounded, flate.DefaultCompression)}}, false)
		if perr != nil {
			if err == nil {
				t.Fatalf("the link opens a scenario that Parse refuses: %v", perr)
			}
			if !strings.HasPrefix(err.Error(), `link parameter "sc": `) || !strings.Contains(err.Error(), perr.Error()) {
				t.Fatalf("the refusal %q does not say what Parse says, %q", err, perr)
			}
			fuzzcheck.PlainError(t, err.Error(), string(data), maxLinkError)
			return
		}
		if err != nil {
			t.Fatalf("a scenario Parse accepts does not open: %v\n%s", err, bounded)
		}
		if got := p.Views[0].Scenario().JSON(); !bytes.Equal(got, want.JSON()) {
			t.Fatalf("the link opens another scenario:\n%s\nnot\n%s", got, want.JSON())
		}
		checkPage(t, p, false)
	})
}

// FuzzZoomPan checks the windows the learner makes with the mouse and keys
// (wheel zoom at a pixel, zoom about the present, drag, follow, reset,
// stepping) on the page a link opens: ops is read four bytes at a time
// (what, which view, where or how far, by how much).
//
//   - Nothing panics, and every window has a finite width and start.
//   - The page lays out after each change, and its link, which the address
//     bar holds after every change, opens again to the same link (see
//     checkPage): a window dragged on a short run, or zoomed at a point
//     past MaxAt, used to write a zoom or a point that the link refuses.
func FuzzZoomPan(f *testing.F) {
	f.Add("v=2&s=snapshot-bank&k=59&at=1e9&span=100000", []byte{0, 0, 250, 64})
	f.Add("v=2&s=snapshot-bank&k=59&at=-1e9&span=1000", []byte{0, 0, 230, 160})
	f.Add("v=2&s=snapshot-bank&k=40", []byte{2, 0, 200, 0, 0, 0, 128, 100, 1, 0, 0, 90, 5, 0, 128, 0, 3, 0, 0, 0})
	f.Add("v=2&s=snapshot-bank&s.2=snapshot-nonfifo&k=30&k.2=20", []byte{0, 1, 100, 100, 2, 0, 10, 0, 6, 1, 0, 0})
	f.Fuzz(func(t *testing.T, raw string, ops []byte) {
		defer fuzzcheck.Watchdog(raw)()
		q, err := ParseLinkQuery(raw)
		if err != nil {
			return
		}
		q, _, ok := boundLink(q)
		if !ok || len(ops) > 4*64 {
			t.Skip("too much work")
		}
		p, err := PageFromQuery(q, false)
		if err != nil {
			return
		}
		const width, height = 960, 350
		for len(ops) >= 4 {
			what, i, by := ops[0], int(ops[1])%len(p.Views), float64(ops[2])
			factor := math.Pow(2, (float64(ops[3])-128)/32) // in or out, up to 16 times
			ops = ops[4:]
			sc := p.Scene(i, width, height)
			switch what % 7 {
			case 0: // the wheel at a pixel
				p.SetView(i, ZoomedAt(sc, by/255*width, factor))
			case 1: // + and −, or the buttons
				p.SetView(i, Zoomed(p.ViewOf(i), sc, factor))
			case 2: // a drag, or Shift+←/→
				p.SetView(i, Panned(sc, (by-128)*8*factor))
			case 3: // F: follow the present
				v := p.ViewOf(i)
				v.Pinned, v.Start = false, 0
				p.SetView(i, v)
			case 4: // 0: the default view
				p.SetView(i, View{})
			case 5:
				p.Seek(i, int(by)*p.Len(i)/255)
			case 6:
				p.Forward(i)
			}
			for j := range p.Views {
				if v := p.WindowOf(j); math.IsNaN(v.Span) || math.IsInf(v.Span, 0) || math.IsNaN(v.Start) || math.IsInf(v.Start, 0) {
					t.Fatalf("view %d's window is %+v", j, v)
				}
			}
		}
		checkPage(t, p, false)
	})
}

// Work bounds: the process-steps a view's run, and a page's, may take
// while fuzzing (a step's cost grows with the number of processes).
const (
	viewWork = 6000
	pageWork = 20_000
)

// fuzzLimit is the most steps a run of n processes may take while fuzzing.
func fuzzLimit(n int) int { return min(max(viewWork/max(n, 1), 20), 1000) }

// builtinLen is each built-in lesson's run length.
var builtinLen = sync.OnceValue(func() map[string]int {
	out := map[string]int{}
	for _, id := range scenario.BuiltinIDs() {
		s, err := scenario.Builtin(id)
		if err != nil {
			continue
		}
		p, err := s.Compile()
		if err != nil {
			continue
		}
		if r, err := p.Run(); err == nil {
			out[id] = r.Len()
		}
	}
	return out
})

// boundLink returns the link with every view's scenario bounded: a
// built-in lesson whose run is long, or a packed scenario that does not stop
// within fuzzLimit steps, is packed again with its until.steps capped. It
// also returns what the link says once decoded (its values and inflated
// scenarios, to find echoes in errors), and false when the page's runs would
// still take too long.
func boundLink(q url.Values) (url.Values, string, bool) {
	var said []string
	for k, vs := range q {
		said = append(said, k)
		said = append(said, vs...)
	}
	r := &linkReading{}
	if err := readVersion(r, q.Get("v")); err != nil {
		return q, strings.Join(said, "\x00"), true
	}
	version := r.version
	work := 0
	for i := 0; i <= MaxViews; i++ {
		sfx := ""
		if i > 0 {
			sfx = "." + strconv.Itoa(i+1)
		}
		s, sc := q.Get("s"+sfx), q.Get("sc"+sfx)
		if s == "" && sc == "" {
			if i == 0 {
				work += 2 * 3 * 100 // the default lesson, or /compare's two
				continue
			}
			break
		}
		var data []byte
		switch {
		case sc != "":
			inflated, ok := fuzzInflate(sc)
			if !ok {
				return q, strings.Join(said, "\x00"), true // refused before it runs
			}
			data = inflated
			said = append(said, string(inflated))
		default:
			b, err := scenario.Builtin(s)
			if err != nil {
				return q, strings.Join(said, "\x00"), true
			}
			if n := builtinLen()[s]; n <= fuzzLimit(len(b.Names)) {
				work += n * len(b.Names)
				continue
			}
			data = b.JSON()
		}
		bounded, n, steps, ok := boundScenario(data, version)
		if !ok {
			return nil, "", false
		}
		if !bytes.Equal(bounded, data) {
			q.Set("sc"+sfx, fuzzPack(bounded, flate.DefaultCompression))
		}
		work += n * steps
	}
	return q, strings.Join(said, "\x00"), work <= pageWork
}

// boundScenario returns the scenario text data with its until.steps capped
// at fuzzLimit, as a link of the given version says it; a text that does not
// parse is returned as it is (it is refused before it runs). It returns the
// number of processes and steps the run may take, and false when it cannot
// bound the run.
func boundScenario(data []byte, version int) ([]byte, int, int, bool) {
	s, err := parseAs(data, version)
	if err != nil {
		return data, 0, 0, true
	}
	if limit := fuzzLimit(s.N); s.Until.Steps > 0 && s.Until.Steps <= limit {
		return data, s.N, s.Until.Steps, true
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(data, &doc) != nil {
		return nil, 0, 0, false
	}
	for k := range doc {
		if strings.EqualFold(k, "until") {
			delete(doc, k)
		}
	}
	u := s.Until
	u.Steps = fuzzLimit(s.N)
	doc["until"], _ = json.Marshal(u)
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, 0, 0, false
	}
	c, err := parseAs(out, version)
	if err != nil || c.Until.Steps <= 0 || c.Until.Steps > fuzzLimit(c.N) {
		return nil, 0, 0, false
	}
	return out, c.N, c.Until.Steps, true
}

// parseAs parses a scenario text as a link of the given version gives it.
func parseAs(data []byte, version int) (*scenario.Scenario, error) {
	if version == 1 {
		var err error
		if data, err = firstVersionScenario(data); err != nil {
			return nil, err
		}
	}
	return scenario.Parse(data)
}

// fuzzPack packs a scenario text as sc= carries it: raw DEFLATE, base64url.
func fuzzPack(data []byte, level int) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, level)
	w.Write(data)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// fuzzInflate unpacks sc=, reporting whether it is a packed text within
// MaxPacked.
func fuzzInflate(text string) ([]byte, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), MaxPacked+1))
	return data, err == nil && len(data) <= MaxPacked
}

// checkPage checks that an opened page is coherent and that every view lays
// out, at its step and at the end of its run, and that the page's own link
// opens again to the same link.
func checkPage(t *testing.T, p *Page, compare bool) {
	t.Helper()
	if len(p.Views) == 0 || len(p.Views) > MaxViews {
		t.Fatalf("a page of %d views", len(p.Views))
	}
	for i := range p.Views {
		checkView(t, p, i)
	}
	q := p.Query()
	again, err := PageFromQuery(q, compare)
	if err != nil {
		t.Fatalf("the page's own link does not open: %v\n%s", err, EncodeQuery(q))
	}
	if a, b := EncodeQuery(q), EncodeQuery(again.Query()); a != b {
		t.Fatalf("the page's own link opens another page:\n%s\n%s", a, b)
	}
	for i := range p.Views {
		p.Seek(i, p.Len(i))
		p.Back(i)
		p.Forward(i)
		checkView(t, p, i)
	}
}

// checkView lays out view i of the page every way the page does.
func checkView(t *testing.T, p *Page, i int) {
	t.Helper()
	s := p.Views[i]
	n := len(s.Scenario().Names)
	switch {
	case s.Step() < 0 || s.Step() > s.Len():
		t.Fatalf("view %d shows step %d of %d", i, s.Step(), s.Len())
	case s.Causality().Selected() < -1 || s.Causality().Selected() >= s.Step():
		t.Fatalf("view %d selects step %d with %d on screen", i, s.Causality().Selected(), s.Step())
	case s.Cut().On() && len(s.Cut().Points()) != n:
		t.Fatalf("view %d has %d cut points for %d processes", i, len(s.Cut().Points()), n)
	}
	for _, size := range [][2]float64{{960, diagram.HeightFor(n)}, {320, 240}} {
		sc := p.Scene(i, size[0], size[1])
		checkScene(t, sc)
		for _, at := range [][2]float64{{size[0] / 2, size[1] / 2}, {70, 40}, {size[0] - 30, size[1] - 50}} {
			_ = sc.Hit(at[0], at[1])
		}
	}
	own := s.Diagram().Scene(640, 300)
	checkScene(t, own)
	_ = own.SVG()
	_, _ = own.Encode(nil, nil)
	if ts := s.Diagram().TopologyScene(300, diagram.TopologyHeight(s.Spec(), n)); ts != nil {
		checkScene(t, ts)
		_ = ts.Hit(150, 150)
	}
	_ = s.Diagram().Legend()
	_ = s.Cut().Text()
	_ = s.Caption()
	_ = s.CaptionSource()
	_ = s.Panels()
	_ = s.Processes()
	_ = s.Report()
	_, _, _ = s.Causality().Counts()
	_ = s.Causality().Text()
}

// checkScene checks a laid-out scene: a window of positive width, and every
// shape at finite coordinates.
func checkScene(t *testing.T, sc *diagram.Scene) {
	t.Helper()
	if !(sc.T1 > sc.T0) || math.IsInf(sc.T0, 0) || math.IsInf(sc.T1, 0) {
		t.Fatalf("the window is [%v, %v]", sc.T0, sc.T1)
	}
	for _, sh := range sc.Shapes {
		for _, x := range []float64{sh.X1, sh.Y1, sh.X2, sh.Y2, sh.Width} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Fatalf("a shape at a coordinate that is not a number: %+v (window [%v, %v])", sh, sc.T0, sc.T1)
			}
		}
	}
}

// apiLinks are seed links made with the API, so that they follow the link
// format: every built-in lesson stepped, with inputs, zoomed and pinned,
// on the Lamport axis, with a selection and a cut, and the compare page.
func apiLinks(f *testing.F) []string {
	var out []string
	add := func(q url.Values) { out = append(out, EncodeQuery(q)) }
	for _, id := range []string{"snapshot-bank", "snapshot-nonfifo"} {
		s, err := scenario.Builtin(id)
		if err != nil {
			f.Fatal(err)
		}
		sess, err := Open(s)
		if err != nil {
			f.Fatal(err)
		}
		sess.Seek(20)
		add(sess.Query())
		if err := sess.Fault("crash", faults.AtProcess(1)); err != nil {
			f.Fatal(err)
		}
		sess.Seek(30)
		if err := sess.Fault("pause", faults.AtProcess(2).With("for", faults.ParamTicks.Num(5))); err != nil {
			f.Fatal(err)
		}
		sess.Axis = diagram.AxisLamport
		sess.Causality().Select(10)
		sess.Cut().Toggle()
		sess.Cut().Place(0, 12.5)
		add(sess.Query())
		sess.Axis = diagram.AxisTime
		sess.View = ZoomedAt(sess.Diagram().Scene(960, 350), 300, 0.5)
		add(sess.Query())
		if err := sess.Switches().SetFIFO(!s.FIFO()); err == nil {
			add(sess.Query())
		}
	}
	p, err := PageFromQuery(url.Values{}, true)
	if err != nil {
		f.Fatal(err)
	}
	p.Seek(0, 30)
	add(p.Query())
	p.Together = false
	p.Forward(1)
	add(p.Query())
	// a tour's stop and quizzes, drawn and chosen
	for _, q := range []url.Values{
		{"v": {URLVersion}, "s": {"snapshot-nonfifo"}, "tour": {"3"}},
		{"v": {URLVersion}, "s": {"lamport-mutex-nonfifo"}, "quiz": {"1"}, "k": {"4"}},
		{"v": {URLVersion}, "s": {"lamport-mutex-nonfifo"}, "quiz": {"6,7"}},
	} {
		add(q)
	}
	return out
}

// Bounds of refusals' lengths: a link's refusal may carry a scenario's
// (which may list 64 process names), an input's or a cut's quotes at most
// a few 40-character pieces.
const (
	maxLinkError   = 8000
	maxInputsError = 1000
)
