package app

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// notificationServer answers org.freedesktop.Notifications.Notify on a bus.
type notificationServer struct{ got chan [2]string }

func (s *notificationServer) Notify(app string, id uint32, icon, summary, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.got <- [2]string{summary, body}
	return 1, nil
}

// TestDesktopNotifierOverARealBus starts a private dbus-daemon, serves the notification
// interface on it, and notifies through it.
func TestDesktopNotifierOverARealBus(t *testing.T) {
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("no dbus-daemon")
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
<auth>EXTERNAL</auth><policy context="default"><allow send_destination="*" eavesdrop="true"/>
<allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`), 0o644)
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--print-address")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Skip("dbus-daemon does not start:", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addr := strings.TrimSpace(line)

	server, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	ns := &notificationServer{got: make(chan [2]string, 1)}
	if err := server.Export(ns, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if reply, err := server.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatal(reply, err)
	}
	if err := (DesktopNotifier{Address: addr}).Notify(context.Background(), "Mundaneum:\n docs", "2 dead links in <b>docs</b> & co"); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-ns.got:
		if got[0] != "Mundaneum: docs" || got[1] != "2 dead links in &lt;b&gt;docs&lt;/b&gt; &amp; co" {
			t.Errorf("notification = %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification arrived")
	}
	if err := (DesktopNotifier{Address: "unix:path=" + filepath.Join(dir, "nobody")}).Notify(context.Background(), "x", "y"); err == nil {
		t.Error("a bus that is not there gave no error")
	}
}
