package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// flagDef is one flag of a command: "--name ARG", or a switch when arg is
// "". The commands' table declares them once, for their parsing and for
// help alike.
type flagDef struct {
	name, arg, usage string
	repeat           bool // may be given more than once (list gives every value)
}

// commandNamed is the command called name; nil when there is none.
func commandNamed(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// newFlagSet is the flag set of the command called name, with the flags
// its row declares.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	for _, f := range commandNamed(name).flags {
		switch {
		case f.arg == "":
			fs.Bool(f.name, false, f.usage)
		case f.repeat:
			fs.Var(&listFlag{}, f.name, f.usage)
		default:
			fs.String(f.name, "", f.usage)
		}
	}
	return fs
}

// str is the value of the string flag name of fs, "" when not given.
func str(fs *flag.FlagSet, name string) string {
	return flagValue(fs, name).(string)
}

// list is every value of the repeatable flag name of fs, in order.
func list(fs *flag.FlagSet, name string) []string {
	return flagValue(fs, name).([]string)
}

// listFlag is a flag that may be given more than once.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }
func (l *listFlag) Get() any           { return []string(*l) }

// on is the value of the switch name of fs.
func on(fs *flag.FlagSet, name string) bool {
	return flagValue(fs, name).(bool)
}

func flagValue(fs *flag.FlagSet, name string) any {
	f := fs.Lookup(name)
	if f == nil {
		panic(fmt.Sprintf("zumba %s has no flag --%s in its row of commands", fs.Name(), name))
	}
	return f.Value.(flag.Getter).Get()
}

// wantsHelp reports whether args (before a "--") ask for help.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// writeHelp writes c's usage line, what it does, and one line per flag,
// indented under zumba help's "Usage:" or, alone, as `zumba CMD -h`.
func (c *command) writeHelp(w io.Writer, alone bool) {
	usage, indent := "  zumba ", "      "
	if alone {
		usage, indent = "usage: zumba ", "  "
	}
	fmt.Fprintf(w, "%s%s\n%s%s\n", usage, strings.TrimSpace(c.name+" "+c.usage), indent, c.short)
	width := 0
	for _, f := range c.flags {
		width = max(width, len(flagText(f)))
	}
	for _, f := range c.flags {
		fmt.Fprintf(w, "%s%-*s  %s\n", indent, width, flagText(f), f.usage)
	}
}

func flagText(f flagDef) string {
	return strings.TrimSpace("--" + f.name + " " + f.arg)
}
