package planner

import (
	"errors"
	"maps"
	"slices"

	"github.com/dynosql/dynosql/internal/errs"
	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/value"
)

// Options tune planning.
type Options struct {
	// Consistent asks for strongly consistent reads where DynamoDB allows
	// them: on the table and local indexes, never on a global index.
	Consistent bool
	// Quirks are the ways the backend departs from DynamoDB that plans
	// must work around.
	Quirks Quirks
	// NonAtomicInserts lets an INSERT of more rows than one transaction
	// holds (100 items, 4 MB) be written one transaction after another;
	// without it such an INSERT is refused, since it would not be all
	// or nothing.
	NonAtomicInserts bool
	// MaxAffected bounds the rows an UPDATE or DELETE that reads its rows
	// first writes without asking (0: no bound).
	MaxAffected int
	// AllowScan lets a statement that no key serves Scan the table (the
	// executor warns with its size). Without it, only indexes the
	// mapping marks scan: true are ever scanned.
	AllowScan bool
}

// Quirks are departures from DynamoDB's behaviour that the embedded
// backend (minidyn) has, and that plans work around rather than give a
// wrong answer.
type Quirks struct {
	// TextKeyOrder: number and binary sort keys come back in the order of
	// their text ("120" before "40"), so ORDER BY never relies on them.
	TextKeyOrder bool
	// NoRemove: UpdateItem's REMOVE leaves the attribute in place, so an
	// UPDATE that sets a column to NULL rewrites the whole item instead
	// (as a move does: read whole, written guarded by what was read).
	NoRemove bool
	// NoSegments: a Scan's Segment and TotalSegments are ignored (each
	// segment returns every item), so a Scan is one segment.
	NoSegments bool
	// NoLocalFetch: a Query of a local index returns only what the
	// index projects, where DynamoDB fetches the rest from the table;
	// the table's own partition read is preferred to a local index.
	NoLocalFetch bool
	// NoIndexKeyUpdate: an UpdateItem that sets an index's key
	// attributes leaves the index wrong, so such an UPDATE rewrites the
	// whole item (a move), as a PutItem keeps indexes right.
	NoIndexKeyUpdate bool
	// FloatNumbers: numbers are held as float64, so the server's own
	// arithmetic rounds in binary (0.1 + 0.2 is stored as
	// 0.30000000000000004): an UPDATE with arithmetic rewrites the whole
	// item with the value computed on the client, exactly
	// (UpdateRows.ExactArith). The numbers sent are checked apart
	// (backend.GuardValues).
	FloatNumbers bool
	// NoListTables: there is no ListTables; SHOW TABLES lists the
	// mapping's entities only.
	NoListTables bool
	// StaleSparseIndex: an item a PutItem takes out of a sparse global
	// index stays in it without its key, and deleting or moving the item
	// later loses other items' entries, so that reads of the index miss
	// rows with no error: such an UPDATE deletes the item and puts it
	// back instead (UpdateRows.Reinsert).
	StaleSparseIndex bool
}

// Catalog names the logical tables a statement can read: the mapping's
// entities, and, where a session opens tables without one, DynamoDB
// tables read raw (see mapping.Raw). *mapping.Mapping is a Catalog.
type Catalog interface {
	Entity(name string) (*mapping.Entity, error)
	// EntityList lists the mapping's entities by name (none without a
	// mapping), for SHOW TABLES.
	EntityList() []*mapping.Entity
}

// Planner plans statements against one catalog of tables. It is safe for
// concurrent use: it holds no state between calls.
type Planner struct {
	cat  Catalog
	opts Options
}

// New returns a Planner for the tables of cat.
func New(cat Catalog, opts Options) *Planner {
	return &Planner{cat: cat, opts: opts}
}

// Plan plans stmt, parsed from sql, with args bound to its placeholders
// in order.
func (p *Planner) Plan(sql string, stmt parser.Statement, args []value.Value) (*Plan, error) {
	switch s := stmt.(type) {
	case *parser.Explain:
		plan, err := p.Plan(sql, s.Statement, args)
		if err != nil {
			return nil, err
		}
		if plan.Control != NoControl {
			// They would run: EXPLAIN must send nothing.
			return nil, errs.New(errs.Unsupported, "EXPLAIN of BEGIN, COMMIT or ROLLBACK is not supported: they have no plan of their own").
				At(sql, 0).WithHint("EXPLAIN each statement of the transaction")
		}
		plan.Explain, plan.Analyze, plan.ExplainFormat = true, s.Analyze, s.Format
		return plan, nil
	case *parser.Select:
		return p.planSelect(sql, s, args)
	case *parser.Union:
		return p.planUnion(sql, s, args)
	case *parser.Begin:
		return &Plan{SQL: sql, Control: Begin}, nil
	case *parser.Commit:
		return &Plan{SQL: sql, Control: Commit}, nil
	case *parser.Rollback:
		return &Plan{SQL: sql, Control: Rollback}, nil
	case *parser.ShowTables, *parser.Describe:
		return p.planCatalog(sql, s)
	}
	return p.planWrite(sql, stmt, args)
}

// selectBuilder holds what planning one SELECT needs to share: the
// statement's query graph (its table references, the conjuncts of WHERE
// and ON, the classes of columns equalities make equal) and which slots
// are read so far.
type selectBuilder struct {
	p      *Planner
	sc     *scope
	sel    *parser.Select
	left   map[int]bool          // slots joined with LEFT JOIN
	leftOn map[int][]parser.Expr // their ON conjuncts
	pool   []parser.Expr         // WHERE and inner ON conjuncts
	used   []bool                // pool conjuncts already applied
	cls    *classes
	needed []map[string]bool // columns each slot must return
	// shown are the columns of each slot that the output needs, and the
	// keys that tell its rows apart where rows are kept once; whole is
	// set where the whole WHERE is checked again on the rows (see wanted).
	shown  []map[string]bool
	whole  bool
	placed map[int]bool
	// anti marks the slots of NOT IN and NOT EXISTS subqueries (also in
	// left: they are read after the outer tables, keyed by them); semi is
	// set when IN or EXISTS subqueries joined; semiJoined marks the slots
	// of those that joined as semi joins, whose rows the joined tuples
	// leave out (see semiJoin); extra holds the conjuncts subqueries add
	// to the WHERE.
	anti       map[int]bool
	semi       bool
	semiJoined map[int]bool
	extra      []parser.Expr
	fixedFacts []*facts // see facts
}

func (p *Planner) planSelect(sql string, sel *parser.Select, args []value.Value) (*Plan, error) {
	if len(sel.From) == 0 {
		return nil, errs.New(errs.Unsupported, "SELECT without FROM reads nothing from DynamoDB").
			WithHint("name a table: SELECT ... FROM students WHERE id = ...")
	}
	sc := newScope(sql, p.cat)
	for _, t := range sel.From {
		if err := sc.add(t.Name, t.Alias, t.Pos); err != nil {
			return nil, err
		}
	}
	b := &selectBuilder{p: p, sc: sc, sel: sel, left: map[int]bool{}, leftOn: map[int][]parser.Expr{}, placed: map[int]bool{}, anti: map[int]bool{}, semiJoined: map[int]bool{}}
	// LEFT JOINs first: a NOT IN subquery must know which outer columns
	// an outer join may leave NULL (notInMatch).
	var innerOn []parser.Expr
	for i, t := range sel.From {
		if t.On == nil {
			continue
		}
		on, err := sc.resolveCondition(t.On, args, "ON")
		if err != nil {
			return nil, err
		}
		for _, s := range sc.slotsOf(on) {
			if s > i {
				return nil, errs.New(errs.Invalid, "the ON condition of %s refers to %s, which is joined later", sc.slots[i].Alias, sc.slots[s].Alias).
					At(sql, t.Pos).WithHint("move the condition to a later ON or to WHERE")
			}
		}
		if t.Join == parser.JoinLeft {
			b.left[i], b.leftOn[i] = true, conjuncts(on)
		} else {
			innerOn = append(innerOn, conjuncts(on)...)
		}
	}
	outerWhere, err := b.subqueries(sel.Where, args)
	if err != nil {
		return nil, err
	}
	where, err := sc.resolveCondition(outerWhere, args, "WHERE")
	if err != nil {
		return nil, err
	}
	b.pool = append(append(conjuncts(where), b.extra...), innerOn...)
	b.used = make([]bool, len(b.pool))
	b.cls = newClasses(b.pool)
	out, err := b.output(args)
	if err != nil {
		return nil, err
	}
	b.needed = out.needed(sc, b.pool, flatten(b.leftOn))
	b.shown = out.needed(sc)
	for s, sl := range sc.slots {
		// The column itself gives the value a case-folded key holds
		// (mapping.Entity.CaseMisfit checks every item against it).
		for _, c := range sl.Entity.FoldedColumns() {
			b.needed[s][c], b.shown[s][c] = true, true
		}
	}
	for s := range sc.slots {
		if b.semi && !sc.sub[s] {
			b.keepKeys(s) // Dedupe tells the outer rows apart by their keys
		}
	}
	root, err := b.reads()
	if errors.Is(err, errs.Refused) && len(sc.slots) == 1 {
		if u := b.union(); u != nil {
			root, err = u, nil
		}
	}
	if err != nil {
		return nil, err
	}
	root = b.dedupe(root)
	root = out.orderByKey(root, p.opts.Quirks)
	out.countOnly(root, sc)
	return &Plan{SQL: sql, Root: out.build(root), Slots: sc.slots, Columns: out.columns(sc)}, nil
}

func flatten(m map[int][]parser.Expr) []parser.Expr {
	var out []parser.Expr
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[k]...)
	}
	return out
}

// reads plans the key-based reads that produce the joined rows: a driver
// read from constants, then one lookup step per remaining slot (several
// full-key lookups share one BatchGetItem).
func (b *selectBuilder) reads() (Node, error) {
	root, err := b.driver()
	if err != nil {
		return nil, err
	}
	root = b.distinctSubquery(root)
	for len(b.placed) < len(b.sc.slots) {
		if root, err = b.lookupStep(root); err != nil {
			return nil, err
		}
	}
	return root, nil
}

// placeable reports whether slot s may be read next: a LEFT JOIN's table
// only after every table before it.
func (b *selectBuilder) placeable(s int) bool {
	if b.placed[s] {
		return false
	}
	if !b.left[s] {
		return true
	}
	for i := 0; i < s; i++ {
		if !b.placed[i] {
			return false
		}
	}
	return true
}

func (b *selectBuilder) read(slot int) Read {
	sl := b.sc.slots[slot]
	return Read{Slot: slot, Alias: sl.Alias, Entity: sl.Entity.Name, Of: sl.Entity}
}

func (b *selectBuilder) consistent(p *mapping.AccessPath) bool {
	return b.p.opts.Consistent && p.Consistent()
}

// joinKind is how slot s joins the slots read before it.
func (b *selectBuilder) joinKind(s int) JoinKind {
	switch {
	case b.anti[s]:
		return Anti
	case b.left[s]:
		return LeftOuter
	}
	return Inner
}

// covered returns the WHERE and inner ON conjuncts whose tables have all
// been read and that no step has applied yet, and marks them applied.
func (b *selectBuilder) covered() []parser.Expr {
	var out []parser.Expr
	for i, c := range b.pool {
		if b.used[i] {
			continue
		}
		ok := true
		for _, s := range b.sc.slotsOf(c) {
			ok = ok && b.placed[s]
		}
		if ok {
			b.used[i] = true
			out = append(out, c)
		}
	}
	return out
}

func (b *selectBuilder) filterCovered(n Node) Node {
	if c := b.covered(); len(c) > 0 {
		return &Filter{Input: n, Cond: and(c)}
	}
	return n
}
