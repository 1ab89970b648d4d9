package executor

import (
	"context"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/planner"
	"github.com/dynosql/dynosql/value"
)

// copyDiff is one copy that differs from its source.
type copyDiff struct {
	f    *planner.FanOut
	src  mapping.Row
	copy copyItem
}

// diffs reads the source rows of a CHECK or REPAIR and returns every copy
// of them that differs.
func (ex *Executor) diffs(ctx context.Context, cc *planner.CopyCheck) ([]copyDiff, error) {
	rows, err := ex.readRows(ctx, cc.Read, cc.Slots)
	if err != nil {
		return nil, err
	}
	var out []copyDiff
	for _, src := range rows {
		for _, f := range cc.FanOuts {
			all, err := ex.findCopies(ctx, f, src[f.SourceKey()])
			if err != nil {
				return nil, err
			}
			for _, c := range all {
				if value.Key(c.Current) != value.Key(src[f.Copy.SourceColumn]) {
					out = append(out, copyDiff{f: f, src: src, copy: c})
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
		rows = append(rows, []value.Value{d.f.Copier().Name, keyDesc(d.f.Copier(), d.copy.row), d.f.Copy.Column, d.copy.Current,
			cc.Source.Name + " " + keyDesc(cc.Source, d.src), d.src[d.f.Copy.SourceColumn]})
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
		// One rewrite per (copy, source row), in order.
		f, src := ds[0].f, ds[0].src
		var group []copyItem
		var rest []copyDiff
		for _, d := range ds {
			if d.f == f && keyDesc(cc.Source, d.src) == keyDesc(cc.Source, src) {
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
