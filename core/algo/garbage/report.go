package garbage

import (
	"fmt"
	"strconv"
	"strings"

	"spacetime/core/sim"
)

func process(v sim.View, id sim.NodeID) *Process { return v.Node(id).(*Process) }

const freedName = "the object is freed only when it is garbage"

// freedOnlyWhenGarbage is what a collector must never break: once the
// owner has freed the object, no process holds a reference to it and no
// REF is on its way to one (which, garbage being stable, then holds for
// good).
var freedOnlyWhenGarbage = sim.Invariant{
	Name: freedName,
	Help: "after the owner frees the object, no process holds a reference and no REF is on its way",
	Check: func(v sim.View) sim.Verdict {
		if !process(v, Owner).Collector.Freed {
			return sim.Verdict{OK: true}
		}
		var holders []string
		for i := range v.N() {
			if process(v, sim.NodeID(i)).Holds > 0 {
				holders = append(holders, v.Name(sim.NodeID(i)))
			}
		}
		flying := v.InFlightTotal(KindRef).Count
		if len(holders) == 0 && flying == 0 {
			return sim.Verdict{OK: true}
		}
		var parts []string
		if len(holders) > 0 {
			verb := " holds a reference"
			if len(holders) > 1 {
				verb = " hold references"
			}
			parts = append(parts, strings.Join(holders, " and ")+verb)
		}
		if flying > 0 {
			parts = append(parts, fmt.Sprintf("%d REF on its way", flying))
		}
		return sim.Verdict{Detail: fmt.Sprintf("%s freed the object at tick %d, but %s: it was not garbage", v.Name(Owner), process(v, Owner).Collector.FreedAt, strings.Join(parts, ", and "))}
	},
}

// references counts the references held and on their way.
func references(v sim.View) (held, flying int) {
	for i := range v.N() {
		held += process(v, sim.NodeID(i)).Holds
	}
	return held, v.InFlightTotal(KindRef).Count
}

func metrics(v sim.View) []sim.Metric {
	c := process(v, Owner).Collector
	held, flying := references(v)
	control := 0
	for i := range v.N() {
		control += process(v, sim.NodeID(i)).Control
	}
	return []sim.Metric{
		{Name: "freed", Value: c.Freed},
		{Name: "checks", Value: c.Check},
		{Name: "references_held", Value: held},
		{Name: "references_in_flight", Value: flying},
		{Name: "control_messages", Value: control},
	}
}

func panels(v sim.View) []sim.Panel {
	c := process(v, Owner).Collector
	note := "the owner frees the object when a check finds no reference"
	panel := sim.Panel{Title: "References", Note: note, Columns: []string{"process", "health", "references", "check"}}
	for i := range v.N() {
		id := sim.NodeID(i)
		check := ""
		if id == Owner {
			switch {
			case c.Freed:
				check = fmt.Sprintf("freed the object at tick %d", c.FreedAt)
			case c.Pending:
				check = fmt.Sprintf("check %d under way, %d references found so far", c.Check, c.Found)
			default:
				check = strconv.Itoa(c.Check) + " checks done"
			}
		}
		panel.Rows = append(panel.Rows, sim.Row{Cells: []string{v.Name(id), v.Health(id).String(), strconv.Itoa(process(v, id).Holds), check}})
	}
	return []sim.Panel{panel}
}

// formula says where the references are.
func formula(v sim.View) string {
	held, flying := references(v)
	return fmt.Sprintf("references held: %d; REFs on their way: %d. The object is garbage when both are 0, and stays so: nobody can make a reference without holding one.", held, flying)
}
