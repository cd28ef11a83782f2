package app

// The window's lifecycle hooks, for the tests of package app_test (which can import
// app/web): desktop.go calls them from Wails' OnStartup and OnShutdown.
var (
	StartLoopback = (*App).startLoopback
	StopLoopback  = (*App).stopLoopback
)
