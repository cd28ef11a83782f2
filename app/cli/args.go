package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"mundaneum/app"
)

// freeText lets a command take query words that start with "-" (`mundaneum search
// -library otlet`): its flags, and the global ones, are recognised wherever they stand, and
// any other argument is a word, whatever its first character. "--" still ends the flags.
// Cobra parses no flags for it; run gets the words once the flags are set.
func freeText(cmd *cobra.Command, run func(cmd *cobra.Command, words []string) error) {
	cmd.DisableFlagParsing = true
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		fs := pflag.NewFlagSet(cmd.Name(), pflag.ContinueOnError)
		fs.AddFlagSet(cmd.LocalFlags())
		fs.AddFlagSet(cmd.InheritedFlags())
		flags, words, help := splitFreeText(fs, args)
		if help {
			return cmd.Help()
		}
		if err := fs.Parse(flags); err != nil {
			return usageError{err}
		}
		// The root's pre-run (the hidden --cpuprofile) ran before these flags were set.
		if pre := cmd.Root().PersistentPreRunE; pre != nil && fs.Changed("cpuprofile") {
			if err := pre(cmd, words); err != nil {
				return err
			}
		}
		return run(cmd, words)
	}
}

// splitFreeText separates args into flag tokens (with their values) that fs knows and
// words; help reports -h or --help among the flags.
func splitFreeText(fs *pflag.FlagSet, args []string) (flags, words []string, help bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return flags, append(words, args[i+1:]...), help
		}
		if a == "-h" || a == "--help" {
			help = true
			continue
		}
		var f *pflag.Flag
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, _, _ := strings.Cut(a[2:], "=")
			f = fs.Lookup(name)
		case len(a) == 2 && a[0] == '-':
			f = fs.ShorthandLookup(a[1:])
		}
		if f == nil {
			words = append(words, a)
			continue
		}
		flags = append(flags, a)
		if !strings.Contains(a, "=") && f.NoOptDefVal == "" && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	return flags, words, help
}

// needWords is the check of a free-text command's words.
func needWords(words []string, what string) error {
	if len(words) == 0 {
		return usageError{fmt.Errorf("%s: nothing to search for", what)}
	}
	return nil
}

// workspaceArg reports whether the root command's one argument names a workspace file
// (a file manager opens one with its path) rather than a mistyped command.
func workspaceArg(arg string) bool {
	return strings.HasSuffix(arg, app.Extension) || strings.ContainsRune(arg, filepath.Separator)
}

// flagSuggestion adds "did you mean --x?" to an unknown long flag's error when cmd has a
// flag (its own or inherited, not hidden) within two edits of it, or starting with it.
func flagSuggestion(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || ne.GetSpecifiedName() == "" {
		return err
	}
	name := ne.GetSpecifiedName()
	best, bestD := "", 3
	visit := func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := levenshtein(name, f.Name)
		if strings.HasPrefix(f.Name, name) && d > 1 {
			d = 1 // --dep for --depth
		}
		if 2*d > len(name) {
			return // --x is not a typo of --db
		}
		if d < bestD || d == bestD && f.Name < best {
			best, bestD = f.Name, d
		}
	}
	cmd.LocalFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if best == "" {
		return err
	}
	return fmt.Errorf("%w: did you mean --%s?", err, best)
}

// levenshtein is the edit distance between a and b (insertions, deletions, substitutions
// and, as one edit, the swap of two neighbours: "depht" is one edit from "depth").
func levenshtein(a, b string) int {
	x, y := []rune(a), []rune(b)
	// Three rows of the table: the one before last (for swaps), the last, the current.
	prev2, prev, cur := make([]int, len(y)+1), make([]int, len(y)+1), make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
