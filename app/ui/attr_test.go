package ui

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quoteProof's text survives go-app's attribute writer (strconv.Quote) and
// an HTML parser: what the browser reads is the text, and nothing in it
// can close the attribute.
func TestQuoteProofSurvivesQuoteAndHTML(t *testing.T) {
	for _, s := range []string{
		"",
		"plain text",
		`x"><meta http-equiv=refresh content=0;url=https://example.org/><x y="`,
		`it's 'single' and "double"`,
		`a\b\"c`,
		"</title><script>alert(1)</script>-->",
		"tab\there, new\nline, bell\a",
		"Chandy–Lamport: A → B, ×0.5, ✓ 😀",
		"&quot; &amp; &#34; &lt;",
		"\u200b \u2028 \ufeff \U000E0001 \u00ad",
	} {
		proof := quoteProof(s)
		quoted := strconv.Quote(proof)
		assert.Equal(t, `"`+proof+`"`, quoted, "Quote changes nothing in %q", s)
		assert.NotContains(t, proof, `"`, s)
		assert.Equal(t, s, html.UnescapeString(proof), "the browser reads %q back", s)
	}
}

// What HTML cannot carry is written as the replacement character: NUL,
// C1 controls (which a reference would turn into Windows-1252 letters)
// and bytes that are not UTF-8.
func TestQuoteProofReplacesWhatHTMLCannotCarry(t *testing.T) {
	for s, want := range map[string]string{
		"a\x00b":   "a\uFFFDb",
		"a\u0080b": "a\uFFFDb",
		"a\xffb":   "a\uFFFDb",
		"\xe2\x82": "\uFFFD",
	} {
		proof := quoteProof(s)
		assert.Equal(t, `"`+proof+`"`, strconv.Quote(proof), s)
		assert.Equal(t, want, html.UnescapeString(proof), "%q", s)
	}
}

// Every attribute the page's components set goes through attrText (or a
// pane's id, which does) unless it is a constant or not a string: so that
// no text that was not written here can reach go-app's attribute writer
// raw, the one place the server's page could be made to say markup. Text
// (Text, Textf) is escaped by go-app itself; inline SVG is escaped by
// app/diagram.
func TestEveryAttributeTextIsQuoteProof(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: compiledImporter(t, fset)}
	_, err = conf.Check("spacetime/app/ui", fset, files, info)
	require.NoError(t, err)

	checked := 0
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || !setsAttribute(info, sel) {
				return true
			}
			for _, arg := range call.Args {
				checked++
				if !quoteProofValue(info, arg) {
					t.Errorf("%s: %s's value %s is not constant: wrap it in attrText", fset.Position(arg.Pos()), sel.Sel.Name, types.ExprString(arg))
				}
			}
			return true
		})
	}
	t.Logf("%d attribute values checked", checked)
}

// setsAttribute says sel is a method of one of go-app's HTML elements that
// sets an attribute: not its text, children or event handlers.
func setsAttribute(info *types.Info, sel *ast.SelectorExpr) bool {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	named, ok := s.Recv().(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "github.com/maxence-charriere/go-app/v10/pkg/app" || !strings.HasPrefix(named.Obj().Name(), "HTML") {
		return false
	}
	name := sel.Sel.Name
	return name != "Text" && name != "Textf" && name != "Body" && !strings.HasPrefix(name, "On")
}

// carriesText says a value of type t may be a string once go-app writes it
// (a string, a slice of them, or an interface that may hold one).
func carriesText(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		return carriesText(u.Elem())
	case *types.Interface:
		return true
	}
	return false
}

// quoteProofValue says arg cannot carry text that was not written here: a
// constant, a value that is not text, attrText(…) or a pane's id(…), or
// numbers formatted with constant words (concatenated, strconv's, or
// fmt.Sprintf's with no text among its arguments).
func quoteProofValue(info *types.Info, arg ast.Expr) bool {
	tv := info.Types[arg]
	if tv.Value != nil || (tv.Type != nil && !carriesText(tv.Type)) {
		return true
	}
	switch e := ast.Unparen(arg).(type) {
	case *ast.BinaryExpr:
		return e.Op == token.ADD && quoteProofValue(info, e.X) && quoteProofValue(info, e.Y)
	case *ast.CallExpr:
		switch fn := e.Fun.(type) {
		case *ast.Ident:
			return fn.Name == "attrText"
		case *ast.SelectorExpr:
			if s, ok := info.Selections[fn]; ok {
				return fn.Sel.Name == "id" && types.TypeString(s.Recv(), nil) == "*spacetime/app/ui.pane"
			}
			pkg, ok := fn.X.(*ast.Ident)
			if !ok {
				return false
			}
			switch pkg.Name + "." + fn.Sel.Name {
			case "strconv.Itoa", "strconv.FormatInt", "strconv.FormatFloat", "strconv.FormatBool":
				return true
			case "fmt.Sprintf":
				for _, a := range e.Args {
					if !quoteProofValue(info, a) {
						return false
					}
				}
				return true
			}
		}
	}
	return false
}

// compiledImporter imports the package's dependencies from the build
// cache's export data (go list -export), which takes a second where type
// checking them from source takes twenty.
func compiledImporter(t *testing.T, fset *token.FileSet) types.Importer {
	out, err := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}={{.Export}}", ".").Output()
	require.NoError(t, err, "go list -export")
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, file, _ := strings.Cut(line, "=")
		exports[path] = file
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
}
