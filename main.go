// Command mundaneum crawls the parts of the web a researcher cares about into a local
// workspace, searches it offline, and keeps a curated library. main only wires: it parses
// the command line and hands the workspace to a front end (window or CLI).
package main

import (
	"embed"
	"errors"
	"fmt"
	"os"

	"mundaneum/app"
	"mundaneum/app/cli"
	"mundaneum/app/web"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	cli.Frontend = assets
	os.Exit(cli.Run(os.Args[1:], desktop))
}

// errNoDisplay says what to do instead of opening the window.
var errNoDisplay = errors.New("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset): " +
	"'mundaneum serve' shows the app in a web browser instead, and 'mundaneum --help' lists the commands")

// desktop opens the window on the workspace at path. The workspace opens while the window
// starts; when another process holds it, the window says so and waits for it.
func desktop(path string) error {
	if app.GeneratingBindings() {
		return app.RunDesktop(new(app.App), assets)
	}
	if !app.HasDisplay() {
		return errNoDisplay
	}
	a := app.Opening(path)
	// Browser extensions reach the window through a loopback door of its own.
	app.UseLoopback(a, web.NewLoopback(app.CaptureAPI(a), func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "mundaneum: "+format+"\n", args...)
	}))
	return app.RunDesktop(a, assets)
}
