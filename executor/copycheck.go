package executor

import (
	"context"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// copyDiff is one copy that differs from its source; gone when the
// source row does not exist (the copy should be NULL).
type copyDiff struct {
	f    *planner.FanOut
	src  mapping.Row
	copy copyItem
	gone bool
}

// diffs reads the source rows of a CHECK or REPAIR and returns every copy
// of them that differs, and of the keys the WHERE names that have no
// source row, every copy that is not NULL.
func (ex *Executor) diffs(ctx context.Context, cc *planner.CopyCheck) ([]copyDiff, error) {
	rows, err := ex.readRows(ctx, cc.Read, cc.Slots)
	if err != nil {
		return nil, err
	}
	key := cc.Source.BaseKeyColumns()[0]
	present := map[string]bool{}
	for _, src := range rows {
		present[value.Key(src[key])] = true
	}
	var gone []mapping.Row
	for _, k := range cc.Keys {
		if !present[value.Key(k)] {
			present[value.Key(k)] = true
			gone = append(gone, mapping.Row{key: k})
		}
	}
	var out []copyDiff
	for i, src := range append(rows, gone...) {
		for _, f := range cc.FanOuts {
			all, err := ex.findCopies(ctx, f, src[f.SourceKey()])
			if err != nil {
				return nil, err
			}
			for _, c := range all {
				if value.Key(c.Current) != value.Key(src[f.Copy.SourceColumn]) {
					out = append(out, copyDiff{f: f, src: src, copy: c, gone: i >= len(rows)})
				}
			}
		}
	}
	return out, nil
}

// checkCopies lists the copies that differ, one row each.
func (ex *Executor) checkCopies(ctx context.Context, cc *planner.CopyCheck) ([][]value.Value, error) {
	ds, err := ex.diffs(ctx, cc)
	if err != nil {
		return nil, err
	}
	var rows [][]value.Value
	for _, d := range ds {
		source := cc.Source.Name + " " + keyDesc(cc.Source, d.src)
		if d.gone {
			source += " (no such row)"
		}
		rows = append(rows, []value.Value{d.f.Copier().Name, keyDesc(d.f.Copier(), d.copy.row), d.f.Copy.Column, d.copy.Current,
			source, d.src[d.f.Copy.SourceColumn]})
	}
	return rows, nil
}

// repair rewrites the copies that differ, each guarded by the value seen.
func (ex *Executor) repair(ctx context.Context, cc *planner.CopyCheck) (*Result, error) {
	ds, err := ex.diffs(ctx, cc)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for len(ds) > 0 {
		// One rewrite per (copy, source row), in order; a source that
		// does not exist is checked to be absent still, as after a DELETE.
		f, src := ds[0].f, ds[0].src
		if ds[0].gone {
			deleted := *f
			deleted.Deleted = true
			f = &deleted
		}
		var group []copyItem
		var rest []copyDiff
		for _, d := range ds {
			if d.f.Copy == f.Copy && keyDesc(cc.Source, d.src) == keyDesc(cc.Source, src) {
				group = append(group, d.copy)
			} else {
				rest = append(rest, d)
			}
		}
		n, err := ex.rewriteCopies(ctx, f, src, group, src[f.Copy.SourceColumn], fanCount{})
		res.Affected += n.updated
		res.CopiesUpdated += n.updated
		res.CopiesSkipped += n.skipped
		if err != nil {
			return res, note(err, "%d copies were repaired before the error; run REPAIR COPIES again to finish", res.CopiesUpdated)
		}
		ds = rest
	}
	return res, nil
}

// sliceRows yields rows computed in advance.
type sliceRows struct{ rows [][]value.Value }

func (s *sliceRows) next(context.Context) ([]value.Value, error) {
	if len(s.rows) == 0 {
		return nil, nil
	}
	r := s.rows[0]
	s.rows = s.rows[1:]
	return r, nil
}
