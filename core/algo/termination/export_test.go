package termination

import "spacetime/core/sim"

// CreditSum adds up the credit held, in flight and returned by visiting
// every process and channel, and reports whether it is exactly 1, as the
// ledger's books say without visiting anything.
func CreditSum(v sim.View) (one, balanced bool) {
	held, returned := holdings(v)
	var total dyadic
	total.set(held)
	total.add(inFlight(v))
	total.add(returned)
	return total.isOne(), v.Tally().(*ledger).balanced()
}

// UnitsSum adds up credit-integer's units held, in flight and returned by
// visiting every process and channel, and reports whether they make the
// root's start, as its books say without visiting anything.
func UnitsSum(v sim.View) (whole, balanced bool) {
	held, flight, returned, total := unitsTotals(v)
	b := v.Tally().(*unitBooks)
	return held+flight+returned == total, b.sum+b.flight == total
}
