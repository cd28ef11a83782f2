package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"strings"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/options/windows"
	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"mundaneum/backend/archive"
)

// This file is the only importer of the Wails runtime: the backend reports progress through
// the Emitter it is handed, and never sees a Wails context.

// distDir is where the built frontend lives relative to the repository root, as embedded by
// main with //go:embed all:frontend/dist.
const distDir = "frontend/dist"

// iconFile is the window icon inside the built frontend (copied from frontend/public).
const iconFile = "appicon.png"

// Window background colours, matching the frontend's light and dark themes so the window does
// not flash the wrong colour before the page paints.
var (
	bgLight = &options.RGBA{R: 250, G: 249, B: 246, A: 255}
	bgDark  = &options.RGBA{R: 28, G: 28, B: 30, A: 255}
)

// ErrNoDisplay is returned by RunDesktop when there is no display to open a window on.
var ErrNoDisplay = errors.New("no display: the desktop window needs DISPLAY or WAYLAND_DISPLAY")

// RunDesktop opens the Mundaneum window and blocks until it is closed. assets is the built
// frontend: either the embedded repository-root FS holding frontend/dist, or the dist
// directory itself. It returns ErrNoDisplay at once on a machine without a display, rather
// than letting GTK panic.
func RunDesktop(a *App, assets fs.FS) error {
	if !HasDisplay() {
		return ErrNoDisplay
	}
	dist, err := distFS(assets)
	if err != nil {
		return err
	}
	var icon []byte
	if b, err := fs.ReadFile(dist, iconFile); err == nil {
		icon = b
	}
	traceStep("window-run")
	err = wails.Run(&options.App{
		Title:            "Mundaneum",
		Width:            1200,
		Height:           800,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: initialBackground(),
		AssetServer:      &assetserver.Options{Assets: dist},
		OnStartup: func(ctx context.Context) {
			traceStep("startup")
			if startTrace.on {
				wailsruntime.EventsOn(ctx, "start:trace", tracePageSteps)
			}
			a.dialogs = dialogs{ctx}
			a.attachTitle(func(title string) { wailsruntime.WindowSetTitle(ctx, title) })
			a.startup(ctx, windowEvents(ctx))
			a.startLoopback() // browsers' door, while the window is open (capture.go)
		},
		OnDomReady: func(context.Context) { traceStep("dom-ready") },
		// Pause running crawls on quit so that they resume next time.
		OnShutdown: func(context.Context) { a.stopLoopback(); a.shutdown() },
		Bind:       []any{a},
		// A drop would navigate the webview to the dropped file or link: crawled content
		// must never load in the window that can call bound methods.
		DragAndDrop: &options.DragAndDrop{DisableWebViewDrop: true},
		Windows:     &windows.Options{Theme: windows.SystemDefault},
		Mac:         &mac.Options{Appearance: mac.DefaultAppearance},
		Linux: &linux.Options{
			Icon:             icon,
			ProgramName:      "mundaneum",
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
	})
	if err != nil {
		return fmt.Errorf("run desktop window: %w", err)
	}
	return nil
}

// windowEvents is the window's transport for events, handed to startup (which puts every
// payload through eventsOut first): the only call of Wails' EventsEmit.
func windowEvents(ctx context.Context) Emitter {
	return func(name string, payload any) { wailsruntime.EventsEmit(ctx, name, payload) }
}

// distFS returns the directory holding index.html: assets itself or its frontend/dist.
func distFS(assets fs.FS) (fs.FS, error) {
	if _, err := fs.Stat(assets, "index.html"); err == nil {
		return assets, nil
	}
	sub, err := fs.Sub(assets, distDir)
	if err != nil {
		return nil, fmt.Errorf("open embedded %s: %w", distDir, err)
	}
	if _, err := fs.Stat(sub, "index.html"); err != nil && !bindingsBuild() {
		return nil, fmt.Errorf("embedded frontend has no index.html (build the frontend first: make build): %w", err)
	}
	return sub, nil
}

// HasDisplay reports whether a desktop window can be opened: on Linux and the BSDs that
// means DISPLAY or WAYLAND_DISPLAY is set; elsewhere it is always true. It is also true in
// the binary `wails generate module` builds (tag "bindings"), which writes the frontend
// bindings and exits without opening a window.
func HasDisplay() bool {
	switch goruntime.GOOS {
	case "windows", "darwin":
		return true
	}
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" || bindingsBuild()
}

// GeneratingBindings reports whether this binary was built by the Wails CLI only to write
// the frontend bindings (it reflects the bound methods and exits): main then opens no
// workspace.
func GeneratingBindings() bool { return bindingsBuild() }

// bindingsBuild reports whether this binary was built by the Wails CLI to generate bindings.
func bindingsBuild() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key != "-tags" {
			continue
		}
		for _, tag := range strings.Split(s.Value, ",") {
			if tag == "bindings" {
				return true
			}
		}
	}
	return false
}

// initialBackground guesses the desktop's colour scheme before the page loads; the frontend
// then sets the real one from prefers-color-scheme with the runtime's
// WindowSetBackgroundColour.
func initialBackground() *options.RGBA {
	if strings.HasSuffix(strings.ToLower(os.Getenv("GTK_THEME")), ":dark") {
		return bgDark
	}
	return bgLight
}

// dialogs are the window's native file dialogs (app.Dialogs). They hold the Wails lifecycle
// context because every runtime call needs it (wailsapp/wails#3843).
type dialogs struct{ ctx context.Context }

var workspaceFilter = []wailsruntime.FileFilter{{DisplayName: "Mundaneum workspaces (*" + Extension + ")", Pattern: "*" + Extension}}

func (d dialogs) OpenFile(title string) (string, error) {
	return wailsruntime.OpenFileDialog(d.ctx, wailsruntime.OpenDialogOptions{Title: title, Filters: workspaceFilter})
}

func (d dialogs) SaveFile(title, defaultName string) (string, error) {
	return wailsruntime.SaveFileDialog(d.ctx, wailsruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName,
		Filters: workspaceFilter, CanCreateDirectories: true})
}

func (d dialogs) OpenArchive(title string) (string, error) {
	var pats []string
	for _, f := range archive.Formats() {
		if f.Import == nil {
			continue // written only
		}
		for _, ext := range f.Extensions {
			pats = append(pats, "*"+ext)
		}
	}
	return wailsruntime.OpenFileDialog(d.ctx, wailsruntime.OpenDialogOptions{Title: title, Filters: []wailsruntime.FileFilter{
		{DisplayName: "Web archives (" + strings.Join(pats, ", ") + ")", Pattern: strings.Join(pats, ";")},
		{DisplayName: "All files", Pattern: "*"}}})
}

func (d dialogs) SaveDocument(title, defaultName string) (string, error) {
	return wailsruntime.SaveFileDialog(d.ctx, wailsruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName,
		CanCreateDirectories: true})
}
