package repl

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/internal/format"
	"github.com/dynosql/dynosql/internal/value"
	"github.com/dynosql/dynosql/mapping"
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
		{`\d`, "[NAME]", "list entities with their key templates, or describe one: columns, keys, which index serves which access", (*Session).describe},
		{`\x`, "[on|off]", "toggle expanded display (one column of name | value per row)", toggle("Expanded display", func(s *Session) *bool { return &s.Expanded })},
		{`\timing`, "[on|off]", "toggle printing how long each statement took", toggle("Timing", func(s *Session) *bool { return &s.Timing })},
		{`\stats`, "[on|off]", "toggle printing requests, items read and capacity after each statement", toggle("Stats", func(s *Session) *bool { return &s.Stats })},
		{`\explain`, "[on|off]", "toggle printing the plan before running each statement", toggle("Explain", func(s *Session) *bool { return &s.Explain })},
		{`\format`, "[FORMAT]", "show or set the output format: table, json, jsonl, csv, tsv, markdown", (*Session).setFormat},
		{`\i`, "FILE", "run the statements and meta-commands of FILE", (*Session).include},
		{`\?`, "", "show this help", (*Session).help},
		{`\q`, "", "quit (Ctrl-D does too)", func(*Session, context.Context, []string) error { return errQuit }},
	}
}

// Meta runs one meta-command line such as `\d students`. Failures are
// reported on Err, counted and returned.
func (s *Session) Meta(ctx context.Context, line string) error {
	fields := strings.Fields(line)
	name := fields[0]
	for _, c := range metaCommands {
		if c.name == name {
			err := c.run(s, ctx, fields[1:])
			if err != nil && !errors.Is(err, errQuit) && !errors.Is(err, errStop) {
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
func toggle(what string, field func(*Session) *bool) func(*Session, context.Context, []string) error {
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
			return errs.New(errs.Invalid, "expected on or off, got %q", args[0])
		}
		state := "off"
		if *p {
			state = "on"
		}
		fmt.Fprintf(s.Out, "%s is %s.\n", what, state)
		return nil
	}
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
	fmt.Fprintf(s.Out, "Output format is %s.\n", f)
	return nil
}

func (s *Session) include(ctx context.Context, args []string) error {
	if len(args) != 1 {
		return errs.New(errs.Invalid, `\i takes one file name`)
	}
	f, err := os.Open(args[0])
	if err != nil {
		return errs.New(errs.Invalid, "cannot open %s: %v", args[0], errors.Unwrap(err))
	}
	defer func() { _ = f.Close() }()
	return s.RunScript(ctx, f)
}

func (s *Session) help(context.Context, []string) error {
	tw := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	for _, c := range metaCommands {
		fmt.Fprintf(tw, "  %s %s\t%s\n", c.name, c.args, c.description)
	}
	fmt.Fprintln(tw, "  Ctrl-C\tcancel the running statement, or clear the input")
	return tw.Flush()
}

// describe lists the entities (\d) or describes one (\d NAME).
func (s *Session) describe(_ context.Context, args []string) error {
	m := s.DB.Mapping()
	if len(args) == 0 {
		return s.listEntities(m)
	}
	e, err := m.Entity(args[0])
	if err != nil {
		return err
	}
	p := s.printer()
	if s.Format == format.Table {
		fmt.Fprintf(s.Out, "Entity %s in table %s\n", e.Name, m.Table)
	}
	cols := &format.Static{Cols: []string{"column", "type", "stored"}}
	for _, c := range e.ColumnNames() {
		stored := "attribute"
		if e.IsKeyColumn(c) {
			stored = "in key"
		}
		cols.Data = append(cols.Data, []value.Value{c, e.Columns[c], stored})
	}
	if _, err := p.Rows(cols); err != nil {
		return err
	}
	paths := &format.Static{Cols: []string{"access", "partition key", "sort key", "serves"}}
	for _, ap := range e.Paths() {
		paths.Data = append(paths.Data, []value.Value{accessName(m, ap), keyText(ap.PKAttr, ap.PK), keyText(ap.SKAttr, ap.SK), serves(ap)})
	}
	_, err = p.Rows(paths)
	return err
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
	_, err := s.printer().Rows(st)
	return err
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
		s += fmt.Sprintf(" [AND %s by =, range, BETWEEN or LIKE 'p%%']", strings.Join(ap.SK.Columns(), ", "))
	}
	return s
}
