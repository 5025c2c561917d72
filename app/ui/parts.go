package ui

// The page's parts are go-app components, each a region of the page in a
// file of its own. They all follow one pattern:
//
//   - A part holds a pointer to the page's shared state (embedded, so that
//     its methods read c.page, c.sess(i), c.changed(ctx) as the Lab does),
//     the index of its pane (Pane) if it belongs to one, and Rev, the
//     Lab's render count.
//   - go-app copies a child's exported fields when its parent renders it
//     again with other values, and renders it again only then: Rev
//     differs on every render of the Lab, so a part is rendered whenever
//     the Lab is, exactly as when the whole page was one component. The
//     state pointer never changes for the life of a Lab, so go-app need
//     not copy it.
//   - A part acts on the shared state and calls c.changed(ctx) (the link,
//     the painting, the slides) as every action did before; an event
//     handler in a part re-renders the part and its ancestors, the Lab
//     among them. The canvases are painted at once from Go (state.redraw),
//     not in a render.
//   - Whoever needs a part's action without its element (the keyboard,
//     the slides, another part) takes the part from the state (c.quizOf(i),
//     c.importer()): a part is a view of the state, not a holder of it.
//
// A new page feature is a new part in its own file plus the line of the
// Render that places it, and a test file that mounts it alone
// (parts_test.go: mountPart).

// paneOf is pane i's part.
func (c *state) paneOf(i int) *PaneView { return &PaneView{state: c, Pane: i, Rev: c.rev} }

// controlsOf is pane i's step and play controls.
func (c *state) controlsOf(i int) *Controls { return &Controls{state: c, Pane: i, Rev: c.rev} }

// settingsOf is pane i's run toggles.
func (c *state) settingsOf(i int) *Settings { return &Settings{state: c, Pane: i, Rev: c.rev} }

// toolsOf is pane i's actions.
func (c *state) toolsOf(i int) *Tools { return &Tools{state: c, Pane: i, Rev: c.rev} }

// cutToolOf is pane i's cut tool.
func (c *state) cutToolOf(i int) *CutTool { return &CutTool{state: c, Pane: i, Rev: c.rev} }

// menuOf is pane i's open menu.
func (c *state) menuOf(i int) *Menu { return &Menu{state: c, Pane: i, Rev: c.rev} }

// panelsOf is pane i's panels.
func (c *state) panelsOf(i int) *Panels { return &Panels{state: c, Pane: i, Rev: c.rev} }

// legendOf is pane i's legend.
func (c *state) legendOf(i int) *Legend { return &Legend{state: c, Pane: i, Rev: c.rev} }

// quizOf is pane i's quiz.
func (c *state) quizOf(i int) *Quiz { return &Quiz{state: c, Pane: i, Rev: c.rev} }

// tourOf is pane i's tour.
func (c *state) tourOf(i int) *Tour { return &Tour{state: c, Pane: i, Rev: c.rev} }

// searchOf is pane i's search for a breaking schedule.
func (c *state) searchOf(i int) *Search { return &Search{state: c, Pane: i, Rev: c.rev} }

// answerOf is pane i's check of its answer to an exercise.
func (c *state) answerOf(i int) *Answer { return &Answer{state: c, Pane: i, Rev: c.rev} }

// writerOf is pane i's editor of its program (the Write view).
func (c *state) writerOf(i int) *Writer { return &Writer{state: c, Pane: i, Rev: c.rev} }

// header is the page's header.
func (c *state) header() *Header { return &Header{state: c, Rev: c.rev} }

// exporter is the side column's export buttons.
func (c *state) exporter() *Exports { return &Exports{state: c, Rev: c.rev} }

// importer is the load panel and the file drop.
func (c *state) importer() *Importer { return &Importer{state: c, Rev: c.rev} }

// comparison is a compare view's table of figures.
func (c *state) comparison() *Comparison { return &Comparison{state: c, Rev: c.rev} }

// courseIndex is the course's index.
func (c *state) courseIndex() *CourseIndex { return &CourseIndex{state: c, Rev: c.rev} }

// slides is the bridge to the slide deck that frames the page.
func (c *state) slides() *slideBridge { return &slideBridge{state: c} }
