package app

// The window's lifecycle hooks, for the tests of package app_test (which can import
// app/web): desktop.go calls them from Wails' OnStartup and OnShutdown.
var (
	StartLoopback = (*App).startLoopback
	StopLoopback  = (*App).stopLoopback
)

// OpeningLater is Opening, the workspace opened when the test calls open (after the
// window started, say).
func OpeningLater(path string) (a *App, open func()) { return opening(path) }
