package repl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// metaCommand is one backslash command. The table below is the only
// place they are defined: \? prints it and completion reads it.
type metaCommand struct {
	name, args, description string
	run                     func(s *Session, ctx context.Context, args []string) error
}

var metaCommands []metaCommand

// The table refers to \?, which prints the table, so it is filled in init.
func init() {
	metaCommands = []metaCommand{
		{`\d`, "[NAME]", "list entities with their key templates (without a mapping, the tables), or describe one: columns, keys, which index serves which access; a raw table as DESCRIBE does", (*Session).describe},
		{`\dt`, "", "list the tables: the mapping's entities, then the DynamoDB tables read raw (SHOW TABLES)", (*Session).showTables},
		{`\x`, "[on|off|auto]", "toggle expanded display (one column of name | value per row); auto: when a row is wider than the terminal", (*Session).expand},
		{`\timing`, "[on|off]", "toggle printing how long each statement took", toggle(`\timing`, "Timing", func(s *Session) *bool { return &s.Timing })},
		{`\stats`, "[on|off]", "toggle printing requests, items read and capacity after each statement", toggle(`\stats`, "Stats", func(s *Session) *bool { return &s.Stats })},
		{`\explain`, "[on|off]", "toggle printing the plan before running each statement", toggle(`\explain`, "Explain", func(s *Session) *bool { return &s.Explain })},
		{`\format`, "[FORMAT]", "show or set the output format: table, json, jsonl, csv, tsv, markdown", (*Session).setFormat},
		{`\pager`, "[on|off]", "toggle paging of tables taller than the terminal through $PAGER", toggle(`\pager`, "Pager", func(s *Session) *bool { return &s.Pager })},
		{`\set`, "[NAME [VALUE]]", "list the variables, or set one; a statement's :NAME is its value, :'NAME' the value as a string", (*Session).setVar},
		{`\unset`, "NAME", "remove a variable", (*Session).unsetVar},
		{`\o`, "[FILE]", "send results to FILE (emptied first); alone, back to standard output", (*Session).setOutput},
		{`\g`, "[FILE]", "run the statement typed so far (or the last one again), its results to FILE if given", (*Session).goCmd},
		{`\e`, "", "edit the statement typed so far (or the last one) in $EDITOR, then run what is saved", (*Session).edit},
		{`\i`, "FILE", "run the statements and meta-commands of FILE", (*Session).include},
		{`\?`, "", "show this help", (*Session).help},
		{`\q`, "", "quit (Ctrl-D does too)", func(*Session, context.Context, []string) error { return errQuit }},
	}
}

// Meta runs one meta-command line such as `\d students`. Failures are
// reported on Err, counted and returned.
func (s *Session) Meta(ctx context.Context, line string) error {
	name, rest := strings.TrimSpace(line), ""
	if i := strings.IndexAny(name, " \t"); i >= 0 {
		name, rest = name[:i], name[i:]
	}
	for _, c := range metaCommands {
		if c.name == name {
			args, err := s.metaArgs(rest)
			if err == nil {
				err = c.run(s, ctx, args)
			}
			if err != nil && !errors.Is(err, errQuit) && !errors.Is(err, errStop) && !errors.As(err, new(reported)) {
				s.Failed++
				s.report(err)
			}
			return err
		}
	}
	err := errs.New(errs.Invalid, "unknown meta-command %s", name).WithHint(`\? lists the meta-commands`)
	if near := errs.Nearest(name, metaNames()); near != "" {
		err.Message += "; did you mean " + near + "?"
	}
	s.Failed++
	s.report(err)
	return err
}

func metaNames() []string {
	names := make([]string, len(metaCommands))
	for i, c := range metaCommands {
		names[i] = c.name
	}
	return names
}

// toggle returns a command that flips a setting, or sets it with on/off.
func toggle(name, what string, field func(*Session) *bool) func(*Session, context.Context, []string) error {
	return func(s *Session, _ context.Context, args []string) error {
		p := field(s)
		switch {
		case len(args) == 0:
			*p = !*p
		case args[0] == "on":
			*p = true
		case args[0] == "off":
			*p = false
		default:
			return errs.New(errs.Invalid, "%s expects on or off, got %q", name, args[0])
		}
		state := "off"
		if *p {
			state = "on"
		}
		s.confirm("%s is %s.", what, state)
		return nil
	}
}

// confirm prints what a meta-command set, unless the start-up file is
// running.
func (s *Session) confirm(format string, args ...any) {
	if !s.quiet {
		fmt.Fprintf(s.Out, format+"\n", args...)
	}
}

// expand is \x: on and off toggle as before, auto expands a table only
// when one of its rows is wider than the terminal, as psql's \x auto.
func (s *Session) expand(_ context.Context, args []string) error {
	switch {
	case len(args) == 0 && s.Expanded == ExpandOff:
		s.Expanded = ExpandOn
	case len(args) == 0:
		s.Expanded = ExpandOff // from auto too, as psql
	case args[0] == "on":
		s.Expanded = ExpandOn
	case args[0] == "off":
		s.Expanded = ExpandOff
	case args[0] == "auto":
		s.Expanded = ExpandAuto
	default:
		return errs.New(errs.Invalid, `\x expects on, off or auto, got %q`, args[0])
	}
	switch s.Expanded {
	case ExpandOn:
		s.confirm("Expanded display is on.")
	case ExpandOff:
		s.confirm("Expanded display is off.")
	default:
		s.confirm("Expanded display is used automatically.")
	}
	return nil
}

func (s *Session) setFormat(_ context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprintf(s.Out, "Output format is %s.\n", s.Format)
		return nil
	}
	f, err := format.Parse(args[0])
	if err != nil {
		return err
	}
	s.Format = f
	s.confirm("Output format is %s.", f)
	return nil
}

func (s *Session) include(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errs.New(errs.Invalid, `\i takes one file name`)
	}
	if s.included >= maxIncludeDepth {
		// A file that includes itself would run its statements, writes
		// too, until the process ran out of files.
		return errs.New(errs.Invalid, `\i nests files more than %d deep`, maxIncludeDepth).
			WithHint(`does %s include itself, directly or through another file?`, args[0])
	}
	f, err := os.Open(expandHome(args[0]))
	if err != nil {
		return errs.New(errs.Invalid, "cannot open %s: %v", args[0], cause(err))
	}
	defer func() { _ = f.Close() }()
	s.included++
	defer func() { s.included-- }()
	return s.RunScript(ctx, args[0], f)
}

// maxIncludeDepth bounds \i files run one inside another.
const maxIncludeDepth = 16

func (s *Session) help(context.Context, []string) error {
	tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	for _, c := range metaCommands {
		fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.args, c.description)
	}
	fmt.Fprintln(tw, "  Ctrl-C\tcancel the running statement, or clear the input")
	return tw.Flush()
}

// describe lists the entities (\d) or describes one (\d NAME). Without
// a mapping, or for a name the mapping does not define, it runs SHOW
// TABLES or DESCRIBE.
func (s *Session) describe(ctx context.Context, args []string) error {
	m := s.DB.Mapping()
	if len(args) == 0 {
		if m == nil {
			return s.showTables(ctx, nil)
		}
		return s.listEntities(m)
	}
	e, ok := (*mapping.Entity)(nil), false
	if m != nil {
		e, ok = m.Entities[args[0]]
	}
	if !ok {
		return s.runFor(ctx, "DESCRIBE "+parser.Ident(args[0]))
	}
	cols := &format.Static{Cols: []string{"column", "type", "stored"}}
	for _, c := range e.ColumnNames() {
		cols.Data = append(cols.Data, []value.Value{c, e.Columns[c], e.Stored(c)})
	}
	paths := &format.Static{Cols: []string{"access", "partition key", "sort key", "serves"}}
	for _, ap := range e.Paths() {
		paths.Data = append(paths.Data, []value.Value{accessName(m, ap), keyText(ap.PKAttr, ap.PK), keyText(ap.SKAttr, ap.SK), serves(ap)})
	}
	return s.print(func(p *format.Printer) error {
		if s.Format == format.Table {
			fmt.Fprintf(p.W, "Entity %s in table %s\n", e.Name, m.Table)
			for _, attr := range slices.Sorted(maps.Keys(e.Fixed)) {
				fmt.Fprintf(p.W, "Every item holds %s = %q (fixed: written on INSERT, not a column)\n", attr, e.Fixed[attr])
			}
		}
		if _, err := p.Rows(cols); err != nil {
			return err
		}
		_, err := p.Rows(paths)
		return err
	})
}

// showTables is \dt: SHOW TABLES.
func (s *Session) showTables(ctx context.Context, _ []string) error {
	return s.runFor(ctx, "SHOW TABLES")
}

// runFor runs the statement a meta-command stands for under a context
// of its own, so that Ctrl-C cancels its requests as it cancels a
// statement's, and not the shell.
func (s *Session) runFor(ctx context.Context, sql string) error {
	ctx, stop := s.statementContext(ctx)
	defer stop()
	return s.run(ctx, sql)
}

func (s *Session) listEntities(m *mapping.Mapping) error {
	attrs := m.KeyAttrs()
	st := &format.Static{Cols: append([]string{"entity"}, attrs...)}
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		row := []value.Value{name}
		for _, a := range attrs {
			if t, ok := e.Keys[a]; ok {
				row = append(row, t)
			} else {
				row = append(row, nil)
			}
		}
		st.Data = append(st.Data, row)
	}
	return s.print(func(p *format.Printer) error {
		_, err := p.Rows(st)
		return err
	})
}

// accessName names an access path: the table, or an index with its
// projection.
func accessName(m *mapping.Mapping, ap *mapping.AccessPath) value.Value {
	if ap.IsBase() {
		return "table " + m.Table
	}
	proj := "ALL"
	if ix := m.Indexes[ap.Index]; ix != nil && ix.Projection != "" {
		proj = ix.Projection
	}
	return fmt.Sprintf("index %s (%s)", ap.Index, proj)
}

func keyText(attr string, t *mapping.Key) value.Value {
	if t == nil {
		return nil
	}
	if t.Case != "" {
		return attr + " = " + t.String() + " (" + t.Case + "-cased)"
	}
	return attr + " = " + t.String()
}

// serves says which WHERE clause an access path answers without a Scan.
func serves(ap *mapping.AccessPath) value.Value {
	pk := ap.PK.Columns()
	conds := make([]string, len(pk))
	for i, c := range pk {
		conds[i] = c + " = ..."
	}
	s := "WHERE " + strings.Join(conds, " AND ")
	if ap.SK != nil && len(ap.SK.Columns()) > 0 {
		how := "=, range, BETWEEN or LIKE 'p%'"
		switch {
		case ap.SK.Type != mapping.KeyS:
			how = "=, range or BETWEEN" // LIKE compares strings
		case ap.SK.Case != "":
			how = "= or LIKE 'p%'" // a folded key keeps no order of the values
		}
		s += fmt.Sprintf(" [AND %s by %s]", strings.Join(ap.SK.Columns(), ", "), how)
	}
	if ap.Optional {
		s += " (only the items that have every column of its keys)"
	}
	return s
}
