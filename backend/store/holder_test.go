package store

import (
	"bufio"
	"context"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// holdEnv names the workspace a re-run of this test binary holds (TestHolderOfAnotherProcess).
const holdEnv = "MUNDANEUM_TEST_HOLD"

// TestHoldHelper is not a test: run with holdEnv set, it opens that workspace for writing,
// says "held" on stdout and keeps it until its stdin closes.
func TestHoldHelper(t *testing.T) {
	path := os.Getenv(holdEnv)
	if path == "" {
		t.Skip("helper process of TestHolderOfAnotherProcess")
	}
	st, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("held\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	st.Close()
}

// A second owner learns which process holds the workspace and with what command; once
// that process lets go, the record is gone and the workspace opens (issue 28, item 7).
func TestHolderOfAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	cmd := osexec.Command(os.Args[0], "-test.run=^TestHoldHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("helper said %q, %v", line, err)
	}

	_, err = Open(context.Background(), path, Options{})
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrLocked) {
		t.Fatalf("open a held workspace: %v, want a HeldError matching ErrLocked", err)
	}
	if held.Holder == nil || held.Holder.PID != cmd.Process.Pid || !slices.Equal(held.Holder.Command, cmd.Args) ||
		held.Holder.Since.IsZero() {
		t.Fatalf("holder = %+v, want pid %d running %q", held.Holder, cmd.Process.Pid, cmd.Args)
	}
	if msg := err.Error(); !strings.Contains(msg, "in use by another process") || !strings.Contains(msg, "TestHoldHelper") {
		t.Errorf("message %q names neither the reason nor the command", msg)
	}
	if h, ok := ReadHolder(path); !ok || h.PID != cmd.Process.Pid {
		t.Errorf("ReadHolder = %+v, %v", h, ok)
	}

	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	if h, ok := ReadHolder(path); ok {
		t.Errorf("a closed workspace still names a holder: %+v", h)
	}
	st, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("open after the holder closed: %v", err)
	}
	if h, ok := ReadHolder(path); !ok || h.PID != os.Getpid() {
		t.Errorf("the new holder is %+v, %v; want this process", h, ok)
	}
	st.Close()
}

// A record left by a process that is gone (killed before it could clear it, or an older
// Mundaneum's stale file) is never shown as the holder.
func TestHolderRecordOfAGoneProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.mundaneum")
	cmd := osexec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	for _, rec := range []string{
		`{"pid":` + strconv.Itoa(cmd.Process.Pid) + `,"command":["mundaneum","serve"]}`, // exited
		`{"pid":` + strconv.Itoa(os.Getpid()) + `,"command":["someone-else"]}`,          // a pid now running another program
		`not json`, ``, `{"pid":-1}`,
	} {
		os.WriteFile(path+".lock", []byte(rec), 0o600)
		if h, ok := ReadHolder(path); ok {
			t.Errorf("record %q: holder %+v", rec, h)
		}
	}
}
