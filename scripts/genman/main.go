// Command genman writes Mundaneum's manual pages (section 1: mundaneum(1) and one page per
// command, mundaneum-crawl(1)...) from the command line's own definitions, for the packages
// that scripts/package.sh builds.
//
// Usage: go run ./scripts/genman -out DIR -version VERSION [-date YYYY-MM-DD]
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra/doc"

	"mundaneum/app/cli"
)

func main() {
	out := flag.String("out", "", "directory to write the pages into")
	version := flag.String("version", "", "the version the pages describe")
	date := flag.String("date", "", "the pages' date, YYYY-MM-DD (default: today; packages pass the commit's)")
	flag.Parse()
	if *out == "" || *version == "" {
		fmt.Fprintln(os.Stderr, "usage: genman -out DIR -version VERSION [-date YYYY-MM-DD]")
		os.Exit(2)
	}
	when := time.Now()
	if *date != "" {
		var err error
		if when, err = time.Parse(time.DateOnly, *date); err != nil {
			fmt.Fprintln(os.Stderr, "genman: -date:", err)
			os.Exit(2)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "genman:", err)
		os.Exit(1)
	}
	root := cli.Command()
	root.DisableAutoGenTag = true // the date is in the header
	// Cobra adds these when it runs a command line: document them too.
	root.InitDefaultVersionFlag()
	root.InitDefaultCompletionCmd()
	header := &doc.GenManHeader{Title: "MUNDANEUM", Section: "1", Date: &when,
		Source: "Mundaneum " + *version, Manual: "Mundaneum Manual"}
	if err := doc.GenManTree(root, header, *out); err != nil {
		fmt.Fprintln(os.Stderr, "genman:", err)
		os.Exit(1)
	}
}
