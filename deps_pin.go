//go:build deps

package main

import (
	_ "github.com/andybalholm/brotli"
	_ "github.com/gofrs/flock"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/spf13/cobra"
	_ "github.com/temoto/robotstxt"
	_ "github.com/wailsapp/wails/v2"
	_ "golang.org/x/net/html"
	_ "golang.org/x/net/html/charset"
	_ "golang.org/x/net/idna"
	_ "golang.org/x/sync/singleflight"
	_ "golang.org/x/term"
	_ "modernc.org/sqlite"
)
