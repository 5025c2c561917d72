//go:build !unix

package main

import "os"

// openScenario opens a file for reading.
func openScenario(name string) (*os.File, error) { return os.Open(name) }
