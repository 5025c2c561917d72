//go:build unix

package conformance

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: what a step costs, which
// other programs on a shared machine do not add to as they do to the
// wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
