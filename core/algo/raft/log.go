package raft

// Entry is one entry of a server's log: the term of the leader that
// appended it and the command it carries to the state machine.
type Entry struct {
	Term int64
	Cmd  Command
	// sum is the hash of the log up to and including this entry, so that
	// two logs are compared at an index in one step (log matching), and a
	// log's changes are found by bisection.
	sum uint64
}

// chunkLen is the number of entries of a full chunk.
const chunkLen = 64

// Log is a server's log, indexed from 1, kept as full chunks that are
// never changed once full and shared between copies, and a short tail
// that each copy owns: the engine copies every server at each of its
// keyframes, and a copy then costs the tail, not the log.
type Log struct {
	full []*[chunkLen]Entry
	tail []Entry
}

// Len is the index of the last entry (0 for an empty log).
func (l *Log) Len() int { return len(l.full)*chunkLen + len(l.tail) }

// At is entry i, from 1 to Len.
func (l *Log) At(i int) Entry {
	i--
	if c := i / chunkLen; c < len(l.full) {
		return l.full[c][i%chunkLen]
	}
	return l.tail[i-len(l.full)*chunkLen]
}

// Term is the term of entry i, and 0 for i = 0 (before the first entry)
// or past the end.
func (l *Log) Term(i int) int64 {
	if i < 1 || i > l.Len() {
		return 0
	}
	return l.At(i).Term
}

// LastTerm is the term of the last entry, 0 for an empty log.
func (l *Log) LastTerm() int64 { return l.Term(l.Len()) }

// Sum is the hash of the log's first i entries (0 for none).
func (l *Log) Sum(i int) uint64 {
	if i < 1 || i > l.Len() {
		return 0
	}
	return l.At(i).sum
}

// Append adds an entry at the end.
func (l *Log) Append(term int64, cmd Command) {
	s := (l.Sum(l.Len()) ^ uint64(term)*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
	for _, w := range cmd {
		s = (s ^ s>>31 ^ uint64(w)) * 0xbf58476d1ce4e5b9
	}
	l.tail = append(l.tail, Entry{Term: term, Cmd: cmd, sum: s ^ s>>31})
	if len(l.tail) == chunkLen {
		c := new([chunkLen]Entry)
		copy(c[:], l.tail)
		// limited to its length, so that a copy's append never writes
		// into the array another copy reads
		l.full = append(l.full[:len(l.full):len(l.full)], c)
		l.tail = l.tail[:0]
	}
}

// TruncateTo drops every entry after index n.
func (l *Log) TruncateTo(n int) {
	if n >= l.Len() {
		return
	}
	if c := n / chunkLen; c < len(l.full) {
		kept := l.full[c][:n%chunkLen]
		l.full = l.full[:c:c]
		l.tail = append(l.tail[:0], kept...)
		return
	}
	l.tail = l.tail[:n-len(l.full)*chunkLen]
}

// Clone copies the log: the full chunks are shared, the tail copied.
func (l *Log) Clone() Log {
	return Log{full: l.full[:len(l.full):len(l.full)], tail: append([]Entry(nil), l.tail...)}
}
