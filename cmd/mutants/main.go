// Command mutants is a mutation campaign: it makes source mutants of every
// algorithm's package (internal/mutate), builds each into a checker of its
// own, runs that algorithm's lessons and a seeded campaign of random runs
// with faults (as `spacetime check` draws them), and reports each mutant
// killed (with the invariant and the run that caught it), survived, shown
// equivalent (equivalent.txt says why), or not compiled. A shared package
// (the marker rule, the mutual-exclusion helpers) is judged by every
// algorithm that uses it, each on its own: an algorithm whose invariants
// miss a bug in what it shares is as weak as one that misses its own.
//
//	go run ./cmd/mutants [-packages checkpoint,snapshot] [-match REGEXP] [-runs 1000]
//	                     [-seed 5] [-sample K] [-jobs J] [-json FILE] [-list]
//
// It runs outside make test (it builds one binary a mutant); `make
// mutants` runs the whole of it, and make test a sample. Exit status 1
// when a mutant survives that equivalent.txt does not explain, or the
// unmutated code fails its own campaign.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"spacetime/core/algo/all"
	"spacetime/core/sim"
	"spacetime/internal/mutate"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		if errors.Is(err, errSurvived) {
			os.Exit(1)
		}
		os.Exit(2)
	}
}

// errSurvived says the campaign found a mutant no invariant caught.
var errSurvived = errors.New("a mutant survived that equivalent.txt does not explain")

// options are the flags.
type options struct {
	packages []string
	match    *regexp.Regexp
	runs     int
	seed     uint64
	sample   int
	jobs     int
	json     string
	list     bool
	// only, if set, are the algorithms that judge (-algorithms): a
	// package's row for one of its algorithms, measured again alone.
	only []string
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mutants", flag.ContinueOnError)
	pkgs := fs.String("packages", "", "the packages under core/algo to mutate, comma-separated (default: every one an algorithm uses)")
	runs := fs.Int("runs", 1000, "seeded runs per algorithm and mutant, after its lessons")
	seed := fs.Uint64("seed", 5, "the campaign's seed")
	sample := fs.Int("sample", 0, "mutate at most this many mutants per package, drawn from the seed (0: all)")
	jobs := fs.Int("jobs", 2, "mutants built and judged at once")
	jsonOut := fs.String("json", "", "write the full report as JSON to this file")
	list := fs.Bool("list", false, "list the mutants, build nothing")
	match := fs.String("match", "", "only the mutants whose id matches this regular expression")
	judgeMode := fs.Bool("judge", false, "(internal) judge the algorithms as this binary was built")
	algorithms := fs.String("algorithms", "", "only these algorithms judge the mutants, comma-separated (default: every one that uses the package)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *judgeMode {
		return judgeMain(stdout, strings.Split(*algorithms, ","), *runs, *seed)
	}
	var re *regexp.Regexp
	if *match != "" {
		var err error
		if re, err = regexp.Compile(*match); err != nil {
			return fmt.Errorf("-match: %w", err)
		}
	}
	opt := options{match: re, runs: *runs, seed: *seed, sample: *sample, jobs: max(1, *jobs), json: *jsonOut, list: *list}
	if *pkgs != "" {
		opt.packages = strings.Split(*pkgs, ",")
	}
	if *algorithms != "" {
		opt.only = strings.Split(*algorithms, ",")
	}
	return campaignMain(stdout, opt)
}

// algoPrefix is where the algorithms' packages are.
const algoPrefix = "spacetime/core/algo/"

// notMutated are packages under core/algo that are no algorithm's
// behaviour: the registry, the learner's interpreter, and the replay of
// a recorded log (which decides nothing).
var notMutated = map[string]bool{"all": true, "python": true, "logreplay": true}

// users maps each package under core/algo (by its last path element) to
// the algorithms that use it, in registry order.
func users(root string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, spec := range all.Specs() {
		pkg := specPackage(spec)
		if pkg == "" || notMutated[strings.TrimPrefix(pkg, algoPrefix)] {
			continue
		}
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg)
		cmd.Dir = root
		b, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list %s: %w", pkg, err)
		}
		for _, dep := range strings.Fields(string(b)) {
			if name, ok := strings.CutPrefix(dep, algoPrefix); ok && !notMutated[name] {
				out[name] = append(out[name], spec.ID)
			}
		}
	}
	return out, nil
}

// specPackage is the package whose processes an algorithm runs, found
// from the type of its first process, made as its first lesson makes
// them.
func specPackage(spec *sim.Spec) string {
	if spec.New == nil || spec.Learner.Record {
		return ""
	}
	n, params := max(spec.MinN, 1), []byte(nil)
	if ls := lessonsOf(spec.ID); len(ls) > 0 {
		n, params = ls[0].N, ls[0].Params
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprint(i + 1)
	}
	if spec.DefaultNames != nil {
		names = spec.DefaultNames(n)
	}
	nodes, err := spec.New(names, params)
	if err != nil || len(nodes) == 0 {
		return ""
	}
	t := reflect.TypeOf(nodes[0])
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath()
}

// moduleRoot is the directory of go.mod.
func moduleRoot() (string, error) {
	b, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(b))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("run it inside the module")
	}
	return filepath.Dir(gomod), nil
}

// job is one mutant and the algorithms that judge it.
type job struct {
	m mutate.Mutant
	// algorithms judge the mutant: those whose campaign runs its code;
	// unreached are those that use its package but never run that code.
	algorithms, unreached []string
	// timeout is how long its judging may take before it is called hung.
	timeout time.Duration
}

// Outcome is one mutant's fate.
type Outcome struct {
	Mutant mutate.Mutant `json:"mutant"`
	// Algorithms are those that use the mutant's package and run the
	// code it changes, which judge it; Unreached use the package but
	// never run that code in their campaign.
	Algorithms []string `json:"algorithms"`
	Unreached  []string `json:"unreached,omitempty"`
	// NotCompiled is the compiler's first complaint, when the mutant does
	// not build; Hung says its judging ran past -timeout.
	NotCompiled string    `json:"not_compiled,omitempty"`
	Hung        bool      `json:"hung,omitempty"`
	Verdicts    []Verdict `json:"verdicts,omitempty"`
	// Equivalent is why the mutant cannot change what the algorithm
	// does, from equivalent.txt.
	Equivalent string `json:"equivalent,omitempty"`
}

// Report is the whole campaign, as -json writes it.
type Report struct {
	Runs     int            `json:"runs"`
	Seed     uint64         `json:"seed"`
	Baseline []Verdict      `json:"baseline"`
	Errata   []ErrataSwitch `json:"errata"`
	Outcomes []Outcome      `json:"outcomes"`
	Seconds  float64        `json:"seconds"`
}

//go:embed equivalent.txt
var equivalentText string

// equivalents reads equivalent.txt: "mutant id -- why", one a line, #
// comments.
func equivalents() map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(equivalentText))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if id, why, ok := strings.Cut(line, " -- "); ok {
			out[strings.TrimSpace(id)] = strings.TrimSpace(why)
		}
	}
	return out
}

func campaignMain(stdout io.Writer, opt options) error {
	started := time.Now()
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	use, err := users(root)
	if err != nil {
		return err
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range use {
			if !yield(k) {
				return
			}
		}
	})
	if opt.packages != nil {
		for _, p := range opt.packages {
			if use[p] == nil {
				return fmt.Errorf("-packages: no algorithm uses core/algo/%s; the packages are %s", p, strings.Join(names, ", "))
			}
		}
		names = opt.packages
	}
	for _, a := range opt.only {
		if !slices.ContainsFunc(names, func(name string) bool { return slices.Contains(use[name], a) }) {
			return fmt.Errorf("-algorithms: %q uses none of the packages mutated (%s)", a, strings.Join(names, ", "))
		}
	}
	var jobs []job
	for _, name := range names {
		ms, err := packageMutants(root, name)
		if err != nil {
			return err
		}
		if opt.match != nil {
			ms = slices.DeleteFunc(ms, func(m mutate.Mutant) bool { return !opt.match.MatchString(m.ID) })
		}
		if opt.sample > 0 && len(ms) > opt.sample {
			rng := rand.New(rand.NewPCG(opt.seed, uint64(len(ms))))
			rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
			ms = ms[:opt.sample]
			slices.SortStableFunc(ms, func(a, b mutate.Mutant) int { return cmp.Compare(a.ID, b.ID) })
		}
		judges := use[name]
		if opt.only != nil {
			judges = slices.DeleteFunc(slices.Clone(judges), func(a string) bool { return !slices.Contains(opt.only, a) })
		}
		for _, m := range ms {
			jobs = append(jobs, job{m: m, algorithms: judges})
		}
	}
	if opt.list {
		for _, j := range jobs {
			fmt.Fprintf(stdout, "%s:%d\t%s\t%s\n", j.m.File, j.m.Line, j.m.ID, j.m.What)
		}
		return nil
	}
	var algos []string
	for _, name := range names {
		for _, a := range use[name] {
			if !slices.Contains(algos, a) && (opt.only == nil || slices.Contains(opt.only, a)) {
				algos = append(algos, a)
			}
		}
	}
	rep := Report{Runs: opt.runs, Seed: opt.seed}
	dir, err := os.MkdirTemp("", "mutants")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(stdout, "the unmutated code, with coverage: %s, %d runs each\n", strings.Join(algos, ", "), opt.runs)
	verdicts, covs, took, err := baseline(root, dir, algos, opt)
	if err != nil {
		return err
	}
	rep.Baseline = verdicts
	for _, v := range verdicts {
		if v.Killed {
			return fmt.Errorf("the unmutated %s fails its own campaign (%s): fix that first", v.Algorithm, describe(v))
		}
	}
	rep.Errata = errata(algos)
	// each mutant is judged by the algorithms whose campaign runs its code
	for i := range jobs {
		var reach []string
		for _, a := range jobs[i].algorithms {
			if covs[a].reaches(jobs[i].m) {
				reach = append(reach, a)
			} else {
				jobs[i].unreached = append(jobs[i].unreached, a)
			}
		}
		jobs[i].algorithms = reach
		// a mutant that makes a run loop forever is caught by the clock;
		// one judge judges every algorithm it reaches, one after another
		jobs[i].timeout = 30 * time.Second
		for _, a := range reach {
			jobs[i].timeout += 10 * took[a]
		}
	}
	eq := equivalents()
	rep.Outcomes = make([]Outcome, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	var mu sync.Mutex
	doneCount := 0
	for range opt.jobs {
		wg.Go(func() {
			for i := range next {
				o := try(root, dir, i, jobs[i], opt)
				if why, ok := eq[o.Mutant.ID]; ok {
					o.Equivalent = why
				}
				mu.Lock()
				rep.Outcomes[i] = o
				doneCount++
				fmt.Fprintf(stdout, "[%d/%d] %s\n", doneCount, len(jobs), line(o))
				mu.Unlock()
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	rep.Seconds = time.Since(started).Seconds()
	survived := summary(stdout, &rep, algos)
	if opt.json != "" {
		b, err := json.MarshalIndent(rep, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(opt.json, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	if survived {
		return errSurvived
	}
	return nil
}

// packageMutants lists the mutants of one package's files.
func packageMutants(root, name string) ([]mutate.Mutant, error) {
	files, err := filepath.Glob(filepath.Join(root, "core", "algo", name, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []mutate.Mutant
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, f)
		ms, err := mutate.File(filepath.ToSlash(rel), src)
		if err != nil {
			return nil, err
		}
		out = append(out, ms...)
	}
	return out, nil
}

// try builds one mutant into a judge of its own and runs it.
func try(root, dir string, i int, j job, opt options) Outcome {
	o := Outcome{Mutant: j.m, Algorithms: j.algorithms, Unreached: j.unreached}
	if len(j.algorithms) == 0 {
		return o
	}
	work := filepath.Join(dir, fmt.Sprint(i))
	defer os.RemoveAll(work)
	if err := os.MkdirAll(work, 0o755); err != nil {
		o.NotCompiled = err.Error()
		return o
	}
	file := filepath.Join(root, filepath.FromSlash(j.m.File))
	src, err := os.ReadFile(file)
	if err != nil {
		o.NotCompiled = err.Error()
		return o
	}
	mutated := filepath.Join(work, filepath.Base(file))
	overlay := filepath.Join(work, "overlay.json")
	ov, _ := json.Marshal(map[string]any{"Replace": map[string]string{file: mutated}})
	bin := filepath.Join(work, "judge")
	if err := os.WriteFile(mutated, j.m.Apply(src), 0o644); err != nil {
		o.NotCompiled = err.Error()
		return o
	}
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		o.NotCompiled = err.Error()
		return o
	}
	build := exec.Command("go", "build", "-overlay", overlay, "-o", bin, "./cmd/mutants")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		o.NotCompiled = firstComplaint(out, err)
		return o
	}
	ctx, cancel := context.WithTimeout(context.Background(), j.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-judge", "-algorithms", strings.Join(j.algorithms, ","), "-runs", fmt.Sprint(opt.runs), "-seed", fmt.Sprint(opt.seed))
	var out bytes.Buffer
	cmd.Stdout = &out
	err = cmd.Run()
	if ctx.Err() != nil {
		o.Hung = true
		return o
	}
	dec := json.NewDecoder(&out)
	for {
		var v Verdict
		if dec.Decode(&v) != nil {
			break
		}
		o.Verdicts = append(o.Verdicts, v)
	}
	if err != nil && len(o.Verdicts) < len(j.algorithms) {
		// the judge itself crashed (a panic outside a run, a stack
		// overflow): the mutant is caught, by the program's failure
		o.Hung = true
	}
	return o
}

// firstComplaint is the first line of the compiler's that names a file.
func firstComplaint(out []byte, err error) string {
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, ".go:") {
			return strings.TrimSpace(l)
		}
	}
	return err.Error()
}

// status is one algorithm's word for the mutant: killed, survived,
// equivalent, not compiled.
func status(o *Outcome, algorithm string) string {
	switch {
	case o.NotCompiled != "":
		return "not compiled"
	case o.Hung:
		return "killed"
	}
	for _, v := range o.Verdicts {
		if v.Algorithm == algorithm {
			if v.Killed {
				return "killed"
			}
			if o.Equivalent != "" && equivalentFor(o.Equivalent, algorithm) {
				return "equivalent"
			}
			return "survived"
		}
	}
	return "survived"
}

// equivalentFor says a reason shows a mutant equivalent for algorithm: a
// reason that begins "for A" (up to its first colon, semicolon, comma or
// "whose") holds only for the algorithms it names there, as a mutant of
// shared code may change one algorithm's behaviour and not another's.
func equivalentFor(why, algorithm string) bool {
	scope, ok := strings.CutPrefix(why, "for ")
	if !ok {
		return true
	}
	if i := strings.IndexAny(scope, ":;,"); i >= 0 {
		scope = scope[:i]
	}
	scope, _, _ = strings.Cut(scope, "whose")
	return strings.Contains(scope, algorithm)
}

// describe says what killed a verdict's build.
func describe(v Verdict) string {
	how := "check --algorithm"
	if v.Subject != v.Algorithm {
		how = "check --scenario"
	}
	what := fmt.Sprintf("%q at step %d", v.Invariant, v.Step)
	switch {
	case v.Panic != "":
		what = "a panic: " + firstLine(v.Panic)
	case v.Error != "":
		what = "an error: " + firstLine(v.Error)
	}
	if v.Lesson {
		return fmt.Sprintf("%s, in the lesson %s as it is", what, v.Subject)
	}
	return fmt.Sprintf("%s, in spacetime %s %s --run-seed %d", what, how, v.Subject, v.Seed)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// line is one mutant's outcome on one line.
func line(o Outcome) string {
	head := fmt.Sprintf("%s:%d %s (%s)", o.Mutant.File, o.Mutant.Line, o.Mutant.ID[strings.Index(o.Mutant.ID, " ")+1:], o.Mutant.What)
	switch {
	case len(o.Algorithms) == 0:
		return "not reached   " + head + " (no campaign runs this code: " + strings.Join(o.Unreached, ", ") + ")"
	case o.NotCompiled != "":
		return "not compiled  " + head
	case o.Hung:
		return "killed (hung) " + head
	}
	var parts []string
	for _, v := range o.Verdicts {
		if v.Killed {
			parts = append(parts, fmt.Sprintf("%s: killed by %s", v.Algorithm, describe(v)))
		} else if o.Equivalent != "" {
			parts = append(parts, fmt.Sprintf("%s: equivalent (%s)", v.Algorithm, o.Equivalent))
		} else {
			parts = append(parts, fmt.Sprintf("%s: SURVIVED %d runs", v.Algorithm, v.Runs))
		}
	}
	if len(o.Unreached) > 0 {
		parts = append(parts, "not reached by "+strings.Join(o.Unreached, ", "))
	}
	return head + "\n    " + strings.Join(parts, "\n    ")
}

// summary prints the table by algorithm and the survivors, and says
// whether any survived unexplained.
func summary(w io.Writer, rep *Report, algos []string) bool {
	fmt.Fprintf(w, "\n%-22s %7s %7s %10s %8s %12s %8s %9s %11s\n", "algorithm", "mutants", "killed", "equivalent", "survived", "not compiled", "killed %", "runs", "not reached")
	unexplained := false
	for _, a := range algos {
		var n, killed, eq, surv, nc, runs, unreached int
		for i := range rep.Outcomes {
			o := &rep.Outcomes[i]
			if slices.Contains(o.Unreached, a) {
				unreached++
			}
			if !slices.Contains(o.Algorithms, a) {
				continue
			}
			n++
			switch status(o, a) {
			case "killed":
				killed++
			case "equivalent":
				eq++
			case "survived":
				surv++
			case "not compiled":
				nc++
			}
			for _, v := range o.Verdicts {
				if v.Algorithm == a {
					runs += v.Runs
				}
			}
		}
		pct := "-"
		if judged := n - nc - eq; judged > 0 {
			pct = fmt.Sprintf("%.0f%%", 100*float64(killed)/float64(judged))
		}
		fmt.Fprintf(w, "%-22s %7d %7d %10d %8d %12d %8s %9d %11d\n", a, n, killed, eq, surv, nc, pct, runs, unreached)
		unexplained = unexplained || surv > 0
	}
	if len(rep.Errata) > 0 {
		fmt.Fprintln(w, "\nerrata switches (mutants the course names), each run in its lesson:")
		for _, e := range rep.Errata {
			if e.Killed {
				fmt.Fprintf(w, "  %-20s %-28s killed by %q at step %d of %s\n", e.Algorithm, e.Switch, e.Invariant, e.Step, e.Lesson)
			} else {
				fmt.Fprintf(w, "  %-20s %-28s SURVIVED its lesson %s\n", e.Algorithm, e.Switch, e.Lesson)
				unexplained = true
			}
		}
	}
	fmt.Fprintf(w, "\n%.0f s\n", rep.Seconds)
	return unexplained
}
