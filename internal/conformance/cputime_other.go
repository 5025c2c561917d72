//go:build !unix

package conformance

import "time"

var began = time.Now()

// cpuTime is the wall clock where the process's CPU time cannot be read.
func cpuTime() time.Duration { return time.Since(began) }
