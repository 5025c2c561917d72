package dblock

import (
	"fmt"
	"slices"

	"spacetime/core/check"
	"spacetime/core/sim"
)

// The checks of the database's and the clients' own rules, read after
// each step off the process that took it and the messages the step
// sent. They restate the rules rather than call the code they judge:
// which transaction held the lock before a step is read off the picture
// and the ROWs the database sent, not off its state.

// DrawnName names the check of the picture.
const DrawnName = "the row's lock and each client's transaction are drawn as they are"

// drawn holds the picture to the state: the lock's interval on the
// database's line exactly while a transaction holds it, and a client's
// "in transaction" exactly while it believes it holds the lock.
var drawn = sim.Invariant{
	Name: DrawnName,
	Help: "the database is drawn locked exactly while a transaction holds the row's lock, and a client drawn in its transaction exactly while it believes it holds it",
	Check: func(v sim.View) sim.Verdict {
		if id, on := check.Misdrawn(v, RoleLock, 0, func(id sim.NodeID) bool {
			return id == Database && process(v, id).DB.Holder.Client != sim.None
		}); id != sim.None {
			return sim.Verdict{Detail: fmt.Sprintf("%s holds the lock for %s, but is %sdrawn locked", v.Name(id), holderName(v, process(v, id).DB.Holder), not(on))}
		}
		if id, on := check.Misdrawn(v, RoleBelieved, 0, func(id sim.NodeID) bool {
			return id != Database && process(v, id).Client.In
		}); id != sim.None {
			return sim.Verdict{Detail: fmt.Sprintf("%s believes it holds the lock: %t, but is %sdrawn in its transaction", v.Name(id), process(v, id).Client.In, not(on))}
		}
		return sim.Verdict{OK: true}
	},
}

// not is "" for an interval drawn and "not " for one that is not.
func not(drawn bool) string {
	if drawn {
		return ""
	}
	return "not "
}

// holderName names the transaction holding the lock, or nobody.
func holderName(v sim.View, t Txn) string {
	if t.Client == sim.None {
		return "nobody"
	}
	return fmt.Sprintf("%s's transaction %d", v.Name(t.Client), t.Seq)
}

// DatabaseName names the check of the database's rules.
const DatabaseName = "the database locks, queues, rolls back, commits and refuses by the rules of SELECT … FOR UPDATE"

// database holds the database to its rules: one transaction holds the
// lock, with its idle timeout armed, and the others wait in turn; a
// SELECT of an ended transaction is refused, one of a new transaction
// locks a free row or waits; an UPDATE is committed from the holder
// (from anyone with the switch off) and refused otherwise; a commit or a
// timeout ends the holder's transaction and passes the lock on; a
// database that recovers has rolled back every transaction it knew.
var database = sim.Invariant{
	Name: DatabaseName,
	Help: "one transaction holds the row's lock, with its idle timeout armed, and the others wait; an ended transaction's SELECT is refused; an UPDATE counts only from the holder; a commit or a timeout ends the holder's transaction and passes the lock on; a recovered database has rolled back every transaction it knew",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		if id != Database {
			return ""
		}
		return databaseRule(v, ev, process(v, id))
	}),
}

// ended says the database counts t as committed or rolled back.
func ended(db *DBState, t Txn) bool {
	return t.Client >= 0 && int(t.Client) < len(db.Ended) && t.Seq <= db.Ended[t.Client]
}

// holderBefore is the transaction that held the lock before step s: the
// lock was drawn held then, and the database sends a ROW exactly when it
// locks the row for a transaction, so the holder is the last ROW's.
func holderBefore(v sim.View, s int) Txn {
	if !v.DrawnBefore(Database, RoleLock, 0, s) {
		return Txn{Client: sim.None}
	}
	for m := v.SentFrom(s) - 1; m >= 0; m-- {
		if e := v.Envelope(m); e.From == Database && e.Kind == KindRow && e.Original == e.ID {
			return Txn{Client: e.To, Seq: e.Value}
		}
	}
	return Txn{Client: sim.None}
}

// answered finds the message of kind the step just taken sent about t.
func answered(v sim.View, t Txn, kind string) (sim.Envelope, bool) {
	for e := range check.SentThisStep(v, Database) {
		if e.To == t.Client && e.Kind == kind && e.Value == t.Seq {
			return e, true
		}
	}
	return sim.Envelope{}, false
}

// databaseRule says how the database's step broke a rule, or "".
func databaseRule(v sim.View, ev sim.Event, p *Process) string {
	db := &p.DB
	if detail := databaseState(v, db); detail != "" {
		return detail
	}
	before := holderBefore(v, v.Steps()-1)
	switch ev.Kind {
	case sim.Recover:
		return recovered(v, db)
	case sim.Timer:
		if ev.Tag != TimerTimeout || before.Client == sim.None {
			return sent(v, "on a timer with the row free")
		}
		if !ended(db, before) || db.Holder == before {
			return fmt.Sprintf("timed %s out, and did not roll it back", holderName(v, before))
		}
		return passedOn(v, db)
	case sim.Deliver:
	default:
		return ""
	}
	t := txnOf(ev.From, ev.Msg)
	switch ev.Msg.Kind {
	case KindSelect:
		return selected(v, db, t, before)
	case KindCommit:
		return updated(v, p, t, before, ev.Msg)
	}
	return ""
}

// databaseState says what is wrong with the database's lock and queue.
func databaseState(v sim.View, db *DBState) string {
	_, timing := v.Timer(Database, TimerTimeout)
	holds := db.Holder.Client != sim.None
	switch {
	case timing != holds:
		return fmt.Sprintf("holds the lock for %s, with its idle timeout %sarmed", holderName(v, db.Holder), not(timing))
	case holds && ended(db, db.Holder):
		return fmt.Sprintf("holds the lock for %s, which has ended", holderName(v, db.Holder))
	case !holds && len(db.Queue) > 0:
		return fmt.Sprintf("keeps %s waiting with the row free", holderName(v, db.Queue[0]))
	}
	for i, t := range db.Queue {
		if t == db.Holder || ended(db, t) || slices.Contains(db.Queue[:i], t) {
			return fmt.Sprintf("keeps %s waiting, which holds the lock, has ended or waits twice", holderName(v, t))
		}
	}
	return ""
}

// sent says the step sent something it should not have.
func sent(v sim.View, when string) string {
	for e := range check.SentThisStep(v, Database) {
		return fmt.Sprintf("sent %s %s %s", v.Name(e.To), e.Kind, when)
	}
	return ""
}

// passedOn says what is wrong with the lock passed on after its holder
// ended: the next holder, if any, was sent its ROW in this step.
func passedOn(v sim.View, db *DBState) string {
	if db.Holder.Client == sim.None {
		return ""
	}
	if _, ok := answered(v, db.Holder, KindRow); !ok {
		return fmt.Sprintf("passed the lock to %s without sending it the row", holderName(v, db.Holder))
	}
	return ""
}

// selected is the rule for a SELECT … FOR UPDATE of t.
func selected(v sim.View, db *DBState, t Txn, before Txn) string {
	switch {
	case ended(db, t):
		if _, ok := answered(v, t, KindAborted); !ok || db.Holder != before {
			return fmt.Sprintf("got a SELECT of %s, which has ended, and did not refuse it with ABORTED", holderName(v, t))
		}
	case before == t:
		return sent(v, "for a SELECT of the transaction holding the lock")
	case before.Client != sim.None:
		if db.Holder != before || !slices.Contains(db.Queue, t) {
			return fmt.Sprintf("got a SELECT of %s while %s held the lock, and does not keep it waiting", holderName(v, t), holderName(v, before))
		}
		return sent(v, "for a SELECT that must wait")
	default:
		row, ok := answered(v, t, KindRow)
		if db.Holder != t || !ok || !slices.Equal(row.Data, []int64{db.Counter}) {
			return fmt.Sprintf("got a SELECT of %s with the row free, and did not lock the row for it and send it the counter", holderName(v, t))
		}
	}
	return ""
}

// updated is the rule for an UPDATE and COMMIT of t.
func updated(v sim.View, p *Process, t Txn, before Txn, m sim.Message) string {
	db := &p.DB
	if len(m.Data) != 1 {
		return sent(v, "for an UPDATE it cannot read")
	}
	takes := before == t || !p.InDatabase
	if !takes {
		if _, ok := answered(v, t, KindAborted); !ok || db.Holder != before {
			return fmt.Sprintf("got the UPDATE of %s while %s held the lock, and did not refuse it with ABORTED", holderName(v, t), holderName(v, before))
		}
		return ""
	}
	if _, ok := answered(v, t, KindCommitted); !ok || db.Counter != m.Data[0] {
		return fmt.Sprintf("took the UPDATE of %s (counter := %d), and holds %d without answering COMMITTED", holderName(v, t), m.Data[0], db.Counter)
	}
	if before != t {
		if db.Holder != before {
			return fmt.Sprintf("took an UPDATE as it came, and moved the lock from %s to %s", holderName(v, before), holderName(v, db.Holder))
		}
		return ""
	}
	if !ended(db, t) || db.Holder == t {
		return fmt.Sprintf("committed %s, and did not end it and release its lock", holderName(v, t))
	}
	return passedOn(v, db)
}

// recovered is the rule for a recovery: the locks and transactions were
// in memory, so every transaction whose SELECT the database had taken
// is rolled back, and a late copy of it cannot lock the row again.
func recovered(v sim.View, db *DBState) string {
	now := v.Steps() - 1
	for m := range v.SentFrom(now) {
		e := v.Envelope(m)
		if t := txnOf(e.From, e.Message); e.Kind == KindSelect && e.To == Database && e.RecvStep >= 0 && e.RecvStep < now && !ended(db, t) {
			return fmt.Sprintf("recovered, and did not roll back %s, which it had heard of", holderName(v, t))
		}
	}
	return ""
}

// ClientName names the check of a client's rules.
const ClientName = "a client works on the row its transaction read, then sends its update, and ends its transaction when answered"

// client holds a client to its rules: told to run a transaction it has
// one under way; the ROW of its current transaction makes it believe it
// holds the lock, with the counter read and its work timer armed; a
// second ROW, or an answer about another transaction, changes nothing;
// when its work is done it sends UPDATE with what it read plus one; an
// answer about its transaction ends it; it recovers with none.
var client = sim.Invariant{
	Name: ClientName,
	Help: "told to run a transaction, a client has one under way; its transaction's ROW makes it hold the lock, read the counter and start work; its work done, it sends UPDATE with the counter read plus one; COMMITTED or ABORTED ends its transaction; a message about another transaction changes nothing",
	Check: check.ProcessRule(func(v sim.View, id sim.NodeID, ev sim.Event) string {
		if id == Database {
			return ""
		}
		return clientRule(v, id, ev, process(v, id).Client)
	}),
}

// clientRule says how a client's step broke a rule, or "".
func clientRule(v sim.View, id sim.NodeID, ev sim.Event, c ClientState) string {
	s := v.Steps() - 1
	was := v.DrawnBefore(id, RoleBelieved, 0, s)
	var update *sim.Envelope
	for e := range check.SentThisStep(v, id) {
		switch {
		case e.Kind == KindSelect && (ev.Kind == sim.Command || ev.Kind == sim.Workload) && e.Value == c.Seq && !c.In:
		case e.Kind == KindCommit && ev.Kind == sim.Timer && ev.Tag == TimerWork && c.In && e.Value == c.Seq && update == nil:
			update = &e
		default:
			return fmt.Sprintf("sent %s of transaction %d when it should not (on %s, in transaction %d)", e.Kind, e.Value, ev.Kind, c.Seq)
		}
	}
	switch {
	case c.In && !c.Busy:
		return fmt.Sprintf("believes it holds the lock with no transaction under way (%d)", c.Seq)
	case ev.Kind == sim.Recover:
		if c.In || c.Busy {
			return "recovered, and still has its transaction"
		}
	case ev.Kind == sim.Command || ev.Kind == sim.Workload:
		if !c.Busy {
			return "was told to run a transaction, and has none under way"
		}
	case ev.Kind == sim.Timer:
		if c.In && (update == nil || !slices.Equal(update.Data, []int64{c.Read + 1})) {
			return fmt.Sprintf("has worked in transaction %d, having read %d, and did not send UPDATE counter := %d", c.Seq, c.Read, c.Read+1)
		}
	case ev.Kind != sim.Deliver:
	case ev.Msg.Value != c.Seq || ev.Msg.Kind == KindRow && (was || !c.Busy):
		if len(v.LastAnnotations()) > 0 || c.In != was {
			return fmt.Sprintf("got a %s it should ignore (of transaction %d, in transaction %d), and acted on it", ev.Msg.Kind, ev.Msg.Value, c.Seq)
		}
	case ev.Msg.Kind == KindRow:
		_, working := v.Timer(id, TimerWork)
		if len(ev.Msg.Data) == 1 && (!c.In || c.Read != ev.Msg.Data[0] || !working) {
			return fmt.Sprintf("got the ROW of its transaction %d (counter %d), and does not hold the lock, read it and work", c.Seq, ev.Msg.Data[0])
		}
	case ev.Msg.Kind == KindCommitted || ev.Msg.Kind == KindAborted:
		if c.In || c.Busy {
			return fmt.Sprintf("was told its transaction %d is %s, and it is still under way", c.Seq, ev.Msg.Kind)
		}
	}
	return ""
}
