package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
