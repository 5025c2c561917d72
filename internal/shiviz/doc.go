// Package shiviz checks Spacetime's ShiViz logs with ShiViz's own parser:
// its tests open every lesson's export, and the logs Spacetime reads, in
// ShiViz's parsing and model code (testdata/shiviz, MIT licence) under
// Node.js, as ShiViz's file input would, and compare what ShiViz builds
// with the trace. It has no code of its own.
package shiviz
