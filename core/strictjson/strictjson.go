// Package strictjson decodes JSON documents strictly: unknown fields,
// keys given twice or spelt otherwise than their fields, and values of the
// wrong type are refused with a *FieldError that names the field path and
// says in plain words what was expected and what was found. It reads the
// scenario files, the links and every algorithm's params.
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FieldError is bad input at one field of a document: its path
// ("params.balances[1]", "script[3].at"), and in plain words what was
// expected and what was found.
type FieldError struct {
	Path string
	// Problem says what is wrong: "want a whole number, got text "x"".
	Problem string
	// Cause is the error Problem words, when it is one a caller may ask
	// after (a program's error at its line); nil for none.
	Cause error
}

// Unwrap is the Cause.
func (e *FieldError) Unwrap() error { return e.Cause }

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Problem
	}
	return fmt.Sprintf("field %q: %s", e.Path, e.Problem)
}

// FieldErrorf is a FieldError at path with a formatted problem.
func FieldErrorf(path, format string, args ...any) *FieldError {
	return &FieldError{Path: path, Problem: fmt.Sprintf(format, args...)}
}

// Decode decodes the JSON document data into v (a pointer), refusing
// unknown fields and wrong types with a *FieldError whose path starts at
// root ("" for a whole document).
func Decode(data []byte, v any, root string) error {
	// a byte order mark, which some editors write, is not part of the text
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return &FieldError{Path: root, Problem: "the document is empty"}
	}
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return errors.New("Decode needs a pointer")
	}
	// the common case, a good document, costs one decode and one walk of
	// its bytes for its keys; anything amiss is decoded again, strictly,
	// and walked to say where and why
	if json.Unmarshal(trimmed, v) == nil && exactKeysOf(trimmed, t.Elem()) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.InputOffset() == int64(len(trimmed)) {
		// encoding/json matches keys without regard to case and lets a
		// repeated key win: refuse both, as unknown fields are refused
		keys := json.NewDecoder(bytes.NewReader(trimmed))
		keys.UseNumber()
		if fe := exactKeys(keys, t.Elem(), root); fe != nil {
			return fe
		}
		return nil
	}
	if !json.Valid(trimmed) {
		return syntaxError(data, root)
	}
	if fe := checkValue(trimmed, t.Elem(), root); fe != nil {
		return fe
	}
	if err == nil {
		return &FieldError{Path: root, Problem: "the document goes on after its end"}
	}
	// the walk accepts what encoding/json takes; a value that a field's own
	// decoder refuses lands here
	return &FieldError{Path: root, Problem: strings.TrimPrefix(err.Error(), "json: ")}
}

// syntaxError says where a document stops being JSON, by line and column.
func syntaxError(data []byte, root string) error {
	var probe any
	err := json.Unmarshal(data, &probe)
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := 1, 1
		for _, b := range data[:max(min(int(se.Offset)-1, len(data)), 0)] {
			if b == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		msg := strings.TrimPrefix(se.Error(), "json: ")
		if strings.Contains(msg, "after top-level value") {
			return &FieldError{Path: root, Problem: fmt.Sprintf("there is more after the end of the %s, at line %d, column %d", documentWord(root), line, col)}
		}
		if strings.Contains(msg, "unexpected end of JSON input") {
			return &FieldError{Path: root, Problem: "not valid JSON: the document ends early (a bracket or quote is not closed)"}
		}
		return &FieldError{Path: root, Problem: fmt.Sprintf("not valid JSON at line %d, column %d: %s", line, col, msg)}
	}
	return &FieldError{Path: root, Problem: "not valid JSON: the document ends early (a bracket or quote is not closed)"}
}

// documentWord names what a document is, for syntax errors.
func documentWord(root string) string {
	if root == "" {
		return "scenario"
	}
	return root
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// checkValue walks one JSON value against the Go type it decodes into and
// returns the first problem: a key no field takes, or a value of the wrong
// kind. raw is valid JSON.
func checkValue(raw []byte, t reflect.Type, path string) *FieldError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == 'n' { // null leaves a field as it is
		return nil
	}
	if pt := reflect.PointerTo(t); pt.Implements(unmarshalerType) || t.Implements(unmarshalerType) {
		// a type that decodes itself says where inside it a problem is
		u, ok := reflect.New(t).Interface().(json.Unmarshaler)
		if !ok {
			return nil
		}
		var fe *FieldError
		if errors.As(u.UnmarshalJSON(raw), &fe) {
			return &FieldError{Path: JoinPath(path, fe.Path), Problem: fe.Problem}
		}
		return nil
	}
	if pt := reflect.PointerTo(t); (pt.Implements(textUnmarshalerType) || t.Implements(textUnmarshalerType)) && t.Kind() != reflect.Struct {
		if raw[0] != '"' {
			return &FieldError{Path: path, Problem: fmt.Sprintf("want text, got %s", found(raw))}
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return checkValue(raw, t.Elem(), path)
	case reflect.Interface:
		return nil
	case reflect.Bool:
		if raw[0] != 't' && raw[0] != 'f' {
			return wrong(path, "true or false", raw)
		}
	case reflect.String:
		if raw[0] != '"' {
			return wrong(path, "text", raw)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if !isNumber(raw) {
			return wrong(path, "a whole number", raw)
		}
		if _, err := strconv.ParseInt(string(raw), 10, t.Bits()); err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return &FieldError{Path: path, Problem: fmt.Sprintf("want a whole number from %d to %d, got %s", minInt(t.Bits()), maxInt(t.Bits()), clipped(raw))}
			}
			return wrong(path, "a whole number", raw)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if !isNumber(raw) {
			return wrong(path, "a whole number", raw)
		}
		if _, err := strconv.ParseUint(string(raw), 10, t.Bits()); err != nil {
			if raw[0] == '-' {
				return &FieldError{Path: path, Problem: fmt.Sprintf("want a whole number of 0 or more, got %s", clipped(raw))}
			}
			if errors.Is(err, strconv.ErrRange) {
				return &FieldError{Path: path, Problem: fmt.Sprintf("want a whole number up to %d, got %s", uint64(1)<<t.Bits()-1, clipped(raw))}
			}
			return wrong(path, "a whole number", raw)
		}
	case reflect.Float32, reflect.Float64:
		if !isNumber(raw) {
			return wrong(path, "a number", raw)
		}
		if _, err := strconv.ParseFloat(string(raw), t.Bits()); errors.Is(err, strconv.ErrRange) {
			return &FieldError{Path: path, Problem: fmt.Sprintf("want a number, got %s, which is too large", found(raw))}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && raw[0] != '[' {
			// bytes are base64 text (or a list of bytes, checked below)
			var text string
			if json.Unmarshal(raw, &text) != nil {
				return wrong(path, "base64 text", raw)
			}
			if _, err := base64.StdEncoding.DecodeString(text); err != nil {
				return &FieldError{Path: path, Problem: fmt.Sprintf("want base64 text, got %s, which is not base64", found(raw))}
			}
			return nil
		}
		if raw[0] != '[' {
			return wrong(path, "a list", raw)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return wrong(path, "a list", raw)
		}
		if t.Kind() == reflect.Array && len(items) > t.Len() {
			return &FieldError{Path: path, Problem: fmt.Sprintf("want a list of at most %d items, got %d", t.Len(), len(items))}
		}
		for i, item := range items {
			if fe := checkValue(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); fe != nil {
				return fe
			}
		}
	case reflect.Map:
		if raw[0] != '{' {
			return wrong(path, "an object", raw)
		}
		keys, values, err := members(raw)
		if err != nil {
			return wrong(path, "an object", raw)
		}
		for i, k := range keys {
			if fe := checkValue(values[i], t.Elem(), join(path, k)); fe != nil {
				return fe
			}
		}
	case reflect.Struct:
		if raw[0] != '{' {
			return wrong(path, "an object", raw)
		}
		keys, values, err := members(raw)
		if err != nil {
			return wrong(path, "an object", raw)
		}
		fields := jsonFields(t)
		for i, k := range keys {
			f, ok := lookupField(fields, k)
			if !ok {
				names := make([]string, 0, len(fields))
				for _, f := range fields {
					names = append(names, f.name)
				}
				sort.Strings(names)
				return &FieldError{Path: join(path, k), Problem: fmt.Sprintf("unknown field (known here: %s)", strings.Join(names, ", "))}
			}
			if fe := checkValue(values[i], f.typ, join(path, k)); fe != nil {
				return fe
			}
		}
	}
	return nil
}

func wrong(path, want string, raw []byte) *FieldError {
	return &FieldError{Path: path, Problem: fmt.Sprintf("want %s, got %s", want, found(raw))}
}

// found names a JSON value in plain words.
func found(raw []byte) string {
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		if r := []rune(s); len(r) > 40 {
			s = string(r[:40]) + "…"
		}
		return fmt.Sprintf("text %q", s)
	case '[':
		return "a list"
	case '{':
		return "an object"
	case 't', 'f':
		return string(raw)
	}
	return "the number " + clipped(raw)
}

// clipped shortens a number or key quoted in an error, so that a long one
// is not echoed back whole.
func clipped[T string | []byte](s T) string {
	if r := []rune(string(s)); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return string(s)
}

func isNumber(raw []byte) bool { return raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9') }

func minInt(bits int) int64 { return -1 << (bits - 1) }
func maxInt(bits int) int64 { return 1<<(bits-1) - 1 }

func join(path, key string) string {
	key = clipped(key) // a long unknown key is not echoed back whole
	if path == "" {
		return key
	}
	return path + "." + key
}

// members lists an object's keys and values in document order.
func members(raw []byte) ([]string, []json.RawMessage, error) {
	var keys []string
	var values []json.RawMessage
	err := Members(raw, func(key string, value []byte) error {
		keys, values = append(keys, key), append(values, value)
		return nil
	})
	return keys, values, err
}

type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists the JSON names of a struct's fields, as encoding/json
// sees them (embedded structs' fields included).
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, jsonFields(ft)...)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, typ: f.Type})
	}
	return out
}

// lookupField finds the field a key decodes into: the exact name (a key
// that differs from it in case is unknown, unlike to encoding/json).
func lookupField(fields []jsonField, key string) (jsonField, bool) {
	for _, f := range fields {
		if f.name == key {
			return f, true
		}
	}
	return jsonField{}, false
}

// keyChecker walks a document encoding/json decoded and refuses an object
// key given twice, or one that names a field only when case is ignored.
// A large document (a log's thousands of events) is walked once, so the
// walk keeps what it can: each struct's fields are listed once, and the
// path to where it is is written out only for an error.
type keyChecker struct {
	dec   *json.Decoder
	types keyTypes
	root  string
	// path is where the walk is below root: a key, or an index when
	// isIndex.
	path []pathStep
}

type pathStep struct {
	key     string
	index   int
	isIndex bool
}

// keyTypes lists each struct's fields once, for the walks that check a
// document's keys against the type it was decoded into.
type keyTypes map[reflect.Type][]jsonField

// members says what the members of a value decoded into t are decoded
// into: a struct's fields (nil for any other type), and the type of every
// element or value of a slice, array or map (nil for any other, and for
// a value decoded by its own rules, an Unmarshaler's or an interface's,
// whose keys are only looked at for repeats).
func (kt keyTypes) members(t reflect.Type) (fields []jsonField, elem reflect.Type) {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || reflect.PointerTo(t).Implements(unmarshalerType) || t.Kind() == reflect.Interface {
		return nil, nil
	}
	switch t.Kind() {
	case reflect.Struct:
		f, ok := kt[t]
		if !ok {
			f = jsonFields(t)
			kt[t] = f
		}
		return f, nil
	case reflect.Slice, reflect.Array, reflect.Map:
		return nil, t.Elem()
	}
	return nil, nil
}

// keySet holds an object's keys, to find one given twice: a list while
// they are few (most objects), a map beyond, so that an object of many
// keys costs no more than a map.
type keySet struct {
	few  []string
	many map[string]bool
}

// twice adds key and says whether it was there already.
func (s *keySet) twice(key string) bool {
	if s.many != nil {
		seen := s.many[key]
		s.many[key] = true
		return seen
	}
	if slices.Contains(s.few, key) {
		return true
	}
	if s.few = append(s.few, key); len(s.few) > 16 {
		s.many = make(map[string]bool, 2*len(s.few))
		for _, k := range s.few {
			s.many[k] = true
		}
	}
	return false
}

// exactKeys reads one value from dec, which holds a document encoding/json
// decoded into type t, and refuses an object key given twice, or one that
// names a field only when case is ignored.
func exactKeys(dec *json.Decoder, t reflect.Type, path string) *FieldError {
	k := &keyChecker{dec: dec, types: keyTypes{}, root: path}
	return k.value(t)
}

// where writes the path to the value being read, then key if not empty.
func (k *keyChecker) where(key string) string {
	p := k.root
	for _, s := range k.path {
		if s.isIndex {
			p = fmt.Sprintf("%s[%d]", p, s.index)
		} else {
			p = join(p, s.key)
		}
	}
	if key != "" {
		p = join(p, key)
	}
	return p
}

func (k *keyChecker) value(t reflect.Type) *FieldError {
	fields, elem := k.types.members(t)
	tok, err := k.dec.Token()
	if err != nil {
		return &FieldError{Path: k.where(""), Problem: "not valid JSON"}
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch delim {
	case '[':
		k.path = append(k.path, pathStep{isIndex: true})
		for i := 0; k.dec.More(); i++ {
			k.path[len(k.path)-1].index = i
			if fe := k.value(elem); fe != nil {
				return fe
			}
		}
		k.path = k.path[:len(k.path)-1]
	case '{':
		var seen keySet
		for k.dec.More() {
			tok, err := k.dec.Token()
			if err != nil {
				return &FieldError{Path: k.where(""), Problem: "not valid JSON"}
			}
			key, _ := tok.(string)
			if seen.twice(key) {
				return &FieldError{Path: k.where(key), Problem: "given twice: say it once"}
			}
			vt := elem
			if fields != nil {
				f, ok := lookupField(fields, key)
				if !ok {
					return &FieldError{Path: k.where(key), Problem: fmt.Sprintf("unknown field: keys match exactly, and this one differs in case from %q", caseMatch(fields, key))}
				}
				vt = f.typ
			}
			k.path = append(k.path, pathStep{key: key})
			if fe := k.value(vt); fe != nil {
				return fe
			}
			k.path = k.path[:len(k.path)-1]
		}
	}
	if _, err := k.dec.Token(); err != nil { // the closing bracket
		return &FieldError{Path: k.where(""), Problem: "not valid JSON"}
	}
	return nil
}

// exactKeysOf walks a valid JSON document that encoding/json decoded into
// type t, and reports whether every object key is given once and names
// exactly a field of its struct (encoding/json ignores unknown keys, lets
// a repeated key win and matches keys without regard to case). It reads
// the bytes as they are, without decoding values: a document of a
// hundred thousand events is walked in milliseconds.
func exactKeysOf(data []byte, t reflect.Type) bool {
	w := &keyWalk{data: data, types: keyTypes{}}
	end, ok := w.value(skipSpace(data, 0), t)
	return ok && skipSpace(data, end) == len(data)
}

// keyWalk is exactKeysOf's walk.
type keyWalk struct {
	data  []byte
	types keyTypes
	// skim says the walk only finds where values end: a key given twice
	// inside one is not its to refuse (Members).
	skim bool
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// value walks the value at i and returns where it ends.
func (w *keyWalk) value(i int, t reflect.Type) (int, bool) {
	fields, elem := w.types.members(t)
	data := w.data
	if i >= len(data) {
		return i, false
	}
	switch data[i] {
	case '"':
		return w.stringEnd(i)
	case '[':
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == ']' {
			return i + 1, true
		}
		for {
			end, ok := w.value(i, elem)
			if !ok {
				return end, false
			}
			var done bool
			if i, done, ok = w.afterMember(end, ']'); done || !ok {
				return i, ok
			}
		}
	case '{':
		var seen keySet
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == '}' {
			return i + 1, true
		}
		for {
			end, ok := w.stringEnd(i)
			if !ok {
				return end, false
			}
			key, ok := w.key(i, end)
			if !ok || (!w.skim && seen.twice(key)) {
				return end, false
			}
			vt := elem
			if fields != nil {
				f, ok := lookupField(fields, key)
				if !ok {
					return end, false
				}
				vt = f.typ
			}
			i = skipSpace(data, end)
			if i >= len(data) || data[i] != ':' {
				return i, false
			}
			end, ok = w.value(skipSpace(data, i+1), vt)
			if !ok {
				return end, false
			}
			var done bool
			if i, done, ok = w.afterMember(end, '}'); done || !ok {
				return i, ok
			}
		}
	}
	// a number, true, false or null
	for i < len(data) {
		switch data[i] {
		case ',', ']', '}', ' ', '\t', '\n', '\r':
			return i, true
		}
		i++
	}
	return i, true
}

// afterMember reads what follows a member of an array or an object that
// ends at end: the close, after which the value is done, or a comma and
// the next member's start (json.Unmarshal has checked the syntax).
func (w *keyWalk) afterMember(end int, close byte) (next int, done, ok bool) {
	i := skipSpace(w.data, end)
	switch {
	case i >= len(w.data):
		return i, false, false
	case w.data[i] == close:
		return i + 1, true, true
	}
	return skipSpace(w.data, i+1), false, true // the comma
}

// stringEnd is where the string that opens at i ends.
func (w *keyWalk) stringEnd(i int) (int, bool) {
	data := w.data
	if i >= len(data) || data[i] != '"' {
		return i, false
	}
	for i++; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return i, false
}

// key is the string data[from:to] as text, read as encoding/json reads
// it: its escapes decoded, and bytes that are not UTF-8 replaced (so that
// two keys it reads alike are found twice).
func (w *keyWalk) key(from, to int) (string, bool) {
	raw := w.data[from:to]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var key string
	err := json.Unmarshal(raw, &key)
	return key, err == nil
}

// caseMatch is the field a key names when case is ignored.
func caseMatch(fields []jsonField, key string) string {
	for _, f := range fields {
		if strings.EqualFold(f.name, key) {
			return f.name
		}
	}
	return ""
}

// Members calls member with each key of the JSON object data and its
// value's bytes, in document order, for a type that decodes its own
// members (an UnmarshalJSON): quickly, without decoding values. Escaped
// keys are decoded; data must be valid JSON (UnmarshalJSON's is).
func Members(data []byte, member func(key string, value []byte) error) error {
	w := &keyWalk{data: data, types: keyTypes{}, skim: true}
	i := skipSpace(data, 0)
	switch {
	case i >= len(data):
		return &FieldError{Problem: "want an object, got nothing"}
	case data[i] != '{':
		return &FieldError{Problem: "want an object, got " + found(bytes.TrimSpace(data))}
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for {
		end, ok := w.stringEnd(i)
		if !ok {
			return &FieldError{Problem: "not valid JSON"}
		}
		key, ok := w.key(i, end)
		if !ok {
			return &FieldError{Problem: "not valid JSON"}
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return &FieldError{Problem: "not valid JSON"}
		}
		from := skipSpace(data, i+1)
		to, ok := w.value(from, nil)
		if !ok {
			return &FieldError{Problem: "not valid JSON"}
		}
		if err := member(key, data[from:to]); err != nil {
			return err
		}
		var done bool
		if i, done, ok = w.afterMember(to, '}'); done || !ok {
			if !ok {
				return &FieldError{Problem: "not valid JSON"}
			}
			return nil
		}
	}
}

// JoinPath is the path of a problem at path inside a value at base:
// "script[3]" and "for" make "script[3].for", and "[1][0]" makes
// "script[3].groups[1][0]" of "script[3].groups".
func JoinPath(base, path string) string {
	switch {
	case base == "":
		return path
	case path == "":
		return base
	case path[0] == '[':
		return base + path
	}
	return base + "." + path
}

// ClipKey shortens an object's key for a FieldError's path, as the
// decoder does, so that a long unknown key is not echoed back whole.
func ClipKey(key string) string { return clipped(key) }
