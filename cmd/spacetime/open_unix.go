//go:build unix

package main

import (
	"os"
	"syscall"
)

// openScenario opens a file for reading without waiting: a named pipe
// nobody writes to opens at once and reads as empty, instead of blocking
// the open until a writer comes.
func openScenario(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
