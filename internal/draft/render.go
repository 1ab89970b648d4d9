package draft

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
)

// finish renders the draft, loads it as dynosql would, and checks that it
// reads each sampled item as the entity it was drafted from; what does
// not is said in comments.
func (d *drafter) finish() ([]byte, error) {
	out := d.render()
	m, err := mapping.Parse(d.t.Name+" (draft)", out)
	if err != nil {
		return nil, errs.New(errs.Internal, "the drafted mapping does not load: %v", errs.As(err).Message).
			WithHint("please report it, with the table's key design")
	}
	all := m.EntityList()
	changed := false
	for _, e := range d.entities {
		wrong := map[string][]Item{}
		for _, it := range e.items {
			got := "no entity"
			if g := m.Classify(it, all); g != nil {
				got = g.Name
			}
			if got != e.name {
				wrong[got] = append(wrong[got], it)
			}
		}
		for _, got := range sortedKeys(wrong) {
			e.notes = append(e.notes, fmt.Sprintf("%d of these items read as %s, such as %s", len(wrong[got]), got, d.keyText(wrong[got][0])))
			changed = true
		}
	}
	if d.claimUnfit(m, all) {
		changed = true
	}
	if !changed {
		return out, nil
	}
	return d.render(), nil
}

// claimUnfit takes out of the left-out items those the drafted mapping m
// reads as a row of an entity after all (items first grouped apart, such
// as "NORMAL#<date>" beside "WARNING1#<date>", whose group was dropped as
// overlapping the entity "{sk}#{timestamp}"), and notes them on that
// entity: calling them left out was untrue. It reports whether any was.
func (d *drafter) claimUnfit(m *mapping.Mapping, all []*mapping.Entity) bool {
	claimed := map[string][]Item{}
	keep := d.unfit[:0]
	for _, u := range d.unfit {
		var rest []Item
		for _, it := range u.items {
			if g := m.Classify(it, all); g != nil {
				claimed[g.Name] = append(claimed[g.Name], it)
			} else {
				rest = append(rest, it)
			}
		}
		if len(rest) > 0 {
			keep = append(keep, unfit{u.why, rest})
		}
	}
	d.unfit = keep
	for _, e := range d.entities {
		if items := claimed[e.name]; len(items) > 0 {
			e.notes = append(e.notes, fmt.Sprintf("%s grouped apart at first read as it too, such as %s", count(len(items), d.noun()), d.keyText(items[0])))
		}
	}
	return len(claimed) > 0
}

// electroDBNote is what a draft of an ElectroDB table says first: how
// its keys were read, and which were read whole.
func (d *drafter) electroDBNote() string {
	var whole []string
	for _, e := range d.entities {
		for _, attr := range sortedKeys(e.keys) {
			if e.electro[attr] == nil {
				whole = append(whole, e.name+"."+attr)
			}
		}
	}
	note := "# ElectroDB wrote these items (__edb_e__): keys in its format, \"$<service>#<label>_<value>\",\n" +
		"# are read so, each {column} the attribute the label names, with key_casing as\n" +
		"# the keys show it (README.md, Case-folded keys).\n"
	if len(whole) > 0 {
		note += "# These keys do not all follow the format, so the draft reads them whole: " + strings.Join(whole, ", ") + ".\n"
	}
	return note
}

// render writes the draft as YAML, comments included.
func (d *drafter) render() []byte {
	var b bytes.Buffer
	for _, h := range d.in.Header {
		b.WriteString(strings.TrimRight("# "+h, " ") + "\n")
	}
	for _, n := range d.in.dropped {
		b.WriteString("# " + n + ".\n")
	}
	for _, u := range d.unfit {
		fmt.Fprintf(&b, "# Left out: %s %s, such as %s.\n", count(len(u.items), d.noun()), u.why, d.keyText(u.items[0]))
	}
	if d.typeAttr == electroDBType {
		b.WriteString(d.electroDBNote())
	}
	fmt.Fprintf(&b, "table: %s\n", yamlKey(d.t.Name))
	fmt.Fprintf(&b, "partition_key: %s\n", yamlKey(d.t.PartitionKey))
	if d.t.SortKey != "" {
		fmt.Fprintf(&b, "sort_key: %s\n", yamlKey(d.t.SortKey))
	}
	if d.typeAttr != "" {
		fmt.Fprintf(&b, "type_attribute: %s  # held by %d of %s\n", yamlKey(d.typeAttr), d.typeHeld, count(d.total, d.noun()))
	}
	d.renderIndexes(&b)
	b.WriteString("entities:\n")
	for _, e := range d.entities {
		d.renderEntity(&b, e)
	}
	return b.Bytes()
}

func (d *drafter) renderIndexes(b *bytes.Buffer) {
	var used, unused []string
	for _, ix := range d.t.Indexes {
		if slices.ContainsFunc(d.entities, func(e *entity) bool { return e.inIndex(ix) }) {
			used = append(used, ix.Name)
		} else {
			unused = append(unused, ix.Name)
		}
	}
	if len(used) > 0 {
		b.WriteString("indexes:\n")
	}
	for _, ix := range d.t.Indexes {
		if !slices.Contains(used, ix.Name) {
			continue
		}
		var fields []string
		if ix.Local {
			fields = append(fields, "local: true")
		} else {
			fields = append(fields, "partition_key: "+yamlKey(ix.PartitionKey))
		}
		if ix.SortKey != "" {
			fields = append(fields, "sort_key: "+yamlKey(ix.SortKey))
		}
		if ix.Projection != "" && ix.Projection != "ALL" {
			fields = append(fields, "projection: "+ix.Projection)
		}
		if ix.Projection == "INCLUDE" {
			var names []string
			for _, n := range ix.Include {
				names = append(names, yamlKey(n))
			}
			fields = append(fields, "include: ["+strings.Join(names, ", ")+"]")
		}
		fmt.Fprintf(b, "  %s: {%s}\n", yamlKey(ix.Name), strings.Join(fields, ", "))
	}
	for _, n := range unused {
		if d.untellable[n] {
			fmt.Fprintf(b, "# Index %s is left out: the keys of the items in it tell nothing of which items those are (see the entities' comments).\n", n)
			continue
		}
		fmt.Fprintf(b, "# Index %s is left out: no %s of any entity holds its keys.\n", n, d.noun())
	}
}

// inIndex reports whether the entity takes part in the index: it has a
// template for each of the index's keys (a local index: its sort key).
func (e *entity) inIndex(ix Index) bool {
	if ix.Local {
		return e.keys[ix.SortKey] != nil
	}
	return e.keys[ix.PartitionKey] != nil && (ix.SortKey == "" || e.keys[ix.SortKey] != nil)
}

func (d *drafter) renderEntity(b *bytes.Buffer, e *entity) {
	head := ""
	switch {
	case e.facet != "" && len(e.items) > 0:
		head = fmt.Sprintf("facet %s: %s, such as %s", e.facet, count(len(e.items), "sample item"), d.keyText(e.items[0]))
	case e.facet != "":
		head = "facet " + e.facet
	case len(e.items) > 0:
		head = fmt.Sprintf("%s, such as %s", count(len(e.items), d.noun()), d.keyText(e.items[0]))
	}
	if e.nameWhy != "" {
		head = join(head, e.nameWhy)
	}
	for _, line := range slices.Concat([]string{head}, e.notes, e.electroNotes()) {
		if line != "" {
			fmt.Fprintf(b, "  # %s.\n", line)
		}
	}
	fmt.Fprintf(b, "  %s:\n", yamlKey(e.name))
	if e.typ != "" {
		fmt.Fprintf(b, "    type: %s\n", yamlQuote(e.typ))
	}
	if c := e.keyCasing(); c != "" {
		fmt.Fprintf(b, "    key_casing: %s\n", c)
	}
	b.WriteString("    keys:\n")
	for _, attr := range d.t.keyAttrs() {
		t := e.keys[attr]
		if t == nil {
			continue
		}
		comment(b, fmt.Sprintf("      %s: %s", yamlKey(attr), yamlQuote(t.text())), strings.Join(t.notes, "; "))
	}
	b.WriteString("    columns:\n")
	for _, v := range e.vars {
		comment(b, fmt.Sprintf("      %s: %s", yamlKey(v.name), v.typ), v.note(len(e.items)))
	}
	for _, name := range sortedKeys(e.cols) {
		c := e.cols[name]
		comment(b, fmt.Sprintf("      %s: %s", yamlKey(name), c.typ), c.note)
	}
	if len(e.fixed) > 0 {
		var pairs []string
		for _, attr := range sortedKeys(e.fixed) {
			pairs = append(pairs, yamlKey(attr)+": "+yamlQuote(e.fixed[attr]))
		}
		comment(b, "    fixed: {"+strings.Join(pairs, ", ")+"}", "written on every INSERT: ElectroDB reads a row as its entity's only if it holds its model's version")
	}
	if len(e.optional) > 0 {
		var names []string
		for _, n := range e.optional {
			names = append(names, yamlKey(n))
		}
		fmt.Fprintf(b, "    optional: [%s]\n", strings.Join(names, ", "))
	}
	if d.in.Open {
		comment(b, "    open: true", "attributes the sample did not show are read by name")
	}
}

// note says what is guessed about a template column.
func (v *variable) note(items int) string {
	n := v.why
	distinct := map[string]bool{}
	for _, s := range v.vals {
		distinct[s] = true
	}
	for s := range distinct {
		if len(distinct) == 1 && v.rank < rankKey && items > 1 && wordRe.MatchString(s) {
			n = join(n, "one value in the sample ("+quote(s)+"), which may be literal text")
		}
	}
	return n
}

// text writes the template as the mapping does: literal text with {column}.
func (t *tmpl) text() string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.v != nil {
			b.WriteString("{" + p.v.name + "}")
		} else {
			b.WriteString(p.lit)
		}
	}
	return b.String()
}

func comment(b *bytes.Buffer, line, note string) {
	if note == "" {
		b.WriteString(line + "\n")
		return
	}
	fmt.Fprintf(b, "%s  # %s\n", line, note)
}

var (
	plainRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
	// YAML 1.1 readers take these for booleans or null.
	reservedRe = regexp.MustCompile(`^(?i:y|n|yes|no|on|off|true|false|null)$`)
)

// yamlKey writes a name plain when YAML reads it back as the same
// string, quoted otherwise.
func yamlKey(s string) string {
	if plainRe.MatchString(s) && !reservedRe.MatchString(s) {
		return s
	}
	return yamlQuote(s)
}

// yamlQuote writes s as a double-quoted scalar: a JSON string is one.
func yamlQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// count writes n things: "1 item", "2 items".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
