package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// errNoInstall means Debian packages are missing and cannot or may not be installed.
var errNoInstall = errors.New("missing Debian packages")

// missingPackages lists the packages dpkg does not report installed.
func missingPackages(ctx context.Context, pkgs ...string) []string {
	var missing []string
	for _, p := range pkgs {
		if exec.CommandContext(ctx, "dpkg", "-s", p).Run() != nil {
			missing = append(missing, p)
		}
	}
	return missing
}

// ensurePackages installs those of pkgs that are missing, as scripts/setup.sh does:
// only what dpkg lacks, as root or through sudo, apt-get retried three times. Without
// install, or without root and sudo, missing packages are an errNoInstall.
func ensurePackages(ctx context.Context, install bool, pkgs ...string) error {
	if _, err := exec.LookPath("dpkg"); err != nil {
		return fmt.Errorf("%w: not a Debian-like system, install the equivalents of %v", errNoInstall, pkgs)
	}
	missing := missingPackages(ctx, pkgs...)
	if len(missing) == 0 {
		return nil
	}
	if !install {
		return fmt.Errorf("%w: %v (run `make relevance` or pass -install)", errNoInstall, missing)
	}
	var sudo []string
	if os.Geteuid() != 0 {
		if exec.CommandContext(ctx, "sudo", "-n", "true").Run() != nil {
			return fmt.Errorf("%w: %v (need root or password-less sudo to install them)", errNoInstall, missing)
		}
		sudo = []string{"sudo", "-n"}
	}
	apt := func(args ...string) error {
		argv := append(append(append([]string{}, sudo...), "env", "DEBIAN_FRONTEND=noninteractive", "apt-get"), args...)
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		return cmd.Run()
	}
	say("installing Debian packages: %v", missing)
	var err error
	// apt can fail when another apt run cleans its cache mid-install: retry.
	for attempt := 1; attempt <= 3; attempt++ {
		if err = apt("update", "-q"); err == nil {
			if err = apt(append([]string{"install", "-y", "-q"}, missing...)...); err == nil {
				return nil
			}
		}
		say("apt-get failed (attempt %d of 3): %v", attempt, err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("install %v: %w", missing, ctx.Err())
		case <-time.After(time.Duration(attempt*5) * time.Second):
		}
	}
	return fmt.Errorf("install %v: %w", missing, err)
}
