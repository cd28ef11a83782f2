package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// Notifier shows a desktop notification. The window, the browser front door and cron runs
// of the command line all notify the same way: a freedesktop notification over the
// user's session bus (no Wails runtime needed, so this file stays out of desktop.go).
type Notifier interface {
	Notify(ctx context.Context, title, body string) error
}

// DesktopNotifier sends org.freedesktop.Notifications.Notify over the session bus.
type DesktopNotifier struct {
	// Address is the bus address; "" finds the session bus the usual way.
	Address string
}

// ErrNoSessionBus means there is no desktop session to notify (e.g. a cron job or SSH).
var ErrNoSessionBus = fmt.Errorf("no desktop session bus to notify")

// sessionBus is the session bus address from DBUS_SESSION_BUS_ADDRESS or the systemd
// user bus socket; it never starts a bus (dbus autolaunch) for a notification.
func sessionBus() string {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = fmt.Sprintf("/run/user/%d", os.Getuid())
	}
	if p := filepath.Join(dir, "bus"); fileExists(p) {
		return "unix:path=" + p
	}
	return ""
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Notify shows title and body. The body is escaped: notification servers that support
// markup would otherwise read a task's name as markup.
func (n DesktopNotifier) Notify(ctx context.Context, title, body string) error {
	addr := n.Address
	if addr == "" {
		addr = sessionBus()
	}
	if addr == "" {
		return ErrNoSessionBus
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	defer conn.Close()
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	call := obj.CallWithContext(ctx, "org.freedesktop.Notifications.Notify", 0,
		"Mundaneum", uint32(0), "mundaneum", oneLine(title), markupEscape(body), []string{},
		map[string]dbus.Variant{"category": dbus.MakeVariant("transfer.complete")}, int32(-1))
	if call.Err != nil {
		return fmt.Errorf("notify: %w", call.Err)
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// markupEscape escapes the few characters the notification spec's body markup reads.
func markupEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
