package explore
import (
	"fmt"
	"testing"
	"spacetime/core/scenario"
)
func TestX(t *testing.T) {
	s, err := scenario.Builtin("snapshot-bank")
	if err != nil { t.Fatal(err) }
	r, err := s.Run()
	if err != nil { t.Fatal(err) }
	fmt.Println(r.Len(), r.Stopped(), r.Failures())
	v := r.At(r.Len()).View()
	for _, m := range s.Spec().Metrics(v) { fmt.Printf("%s %#v\n", m.Name, m.Value) }
}
