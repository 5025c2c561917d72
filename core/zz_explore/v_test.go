package explore
import (
	"fmt"
	"testing"
	"spacetime/core/scenario"
)
func TestV(t *testing.T) {
	for _, j := range []string{
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"network":{"fifoo":true},"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"bogus":1,"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"params":{"foo":1},"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":"x","seed":1,"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"script":[{"at":1,"node":"A","command":"snapshot","bogus":2}],"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"until":{"steps":5}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"network":{"delay":[1]},"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"script":[{"at":1,"node":"A","command":"transfer"}],"until":{"steps":5}}`,
		`{"algorithm":"chandy-lamport","n":3,"seed":1,"script":[{"at":1,"fault":"drop","msg":999}],"until":{"steps":50}}`,
	} {
		s, err := scenario.Parse([]byte(j))
		fmt.Println(err)
		if err == nil {
			r, err := s.Run()
			fmt.Println(r.Len(), err)
		}
	}
}
