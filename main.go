// Command mundaneum crawls the parts of the web a researcher cares about into a local
// workspace, searches it offline, and keeps a curated library. main only wires: it parses
// the command line and hands the workspace to a front end (window or CLI).
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"

	"mundaneum/app"
	"mundaneum/app/cli"
	"mundaneum/app/web"
	"mundaneum/backend/store"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	cli.Frontend = assets
	os.Exit(cli.Run(os.Args[1:], desktop))
}

// desktop opens the window on the workspace at path.
func desktop(path string) error {
	if app.GeneratingBindings() {
		return app.RunDesktop(new(app.App), assets)
	}
	if !app.HasDisplay() {
		return errors.New("no display to open the window on (DISPLAY/WAYLAND_DISPLAY unset); use the command line (mundaneum --help)")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return err
	}
	if err := st.MarkInterrupted(ctx); err != nil {
		st.Close()
		return fmt.Errorf("open workspace: %w", err)
	}
	a, err := app.New(st)
	if err != nil {
		return err
	}
	// Browser extensions reach the window through a loopback door of its own.
	app.UseLoopback(a, web.NewLoopback(app.CaptureAPI(a), func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "mundaneum: "+format+"\n", args...)
	}))
	return app.RunDesktop(a, assets)
}
