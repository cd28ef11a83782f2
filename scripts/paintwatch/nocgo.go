//go:build !cgo

// Command paintwatch times a window's first paint on an X display (see main.go); it reads
// the screen through Xlib, so it needs cgo.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "paintwatch: built without cgo; build it with CGO_ENABLED=1 (it reads the screen through Xlib)")
	os.Exit(1)
}
