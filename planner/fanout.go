package planner

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/value"
)

// FanOut keeps the copies of one source column in step: for each source
// row written, Query Copy.Path (keyed by the copy's key column alone) for
// the items that carry the copy, and rewrite each copy that differs from
// the source's new value with an update guarded by the value the Query
// saw, so that a copy changed in between is skipped, not clobbered. The
// updates go in TransactWriteItems of up to CopiesPerTransact (fewer
// when their estimated size would pass 4 MB), each with a ConditionCheck
// that the source still holds the value written, so a fan-out overtaken
// by a later change of its source writes nothing stale and stops with a
// conflict. Index reads are eventually consistent: after the updates the
// Query is repeated (at most MaxRounds times in all) until it shows no
// copy it has not already tried that still differs.
type FanOut struct {
	Table string
	Copy  *mapping.Copy
	// NullValue sets a copy whose source became NULL to an attribute of
	// type NULL, which reads as NULL, instead of removing it: the
	// embedded backend's REMOVE leaves the attribute (Quirks.NoRemove).
	NullValue bool
	// Deleted: the source rows were deleted, so their copies become NULL
	// (what a join with a missing row gives), and each transaction checks
	// that the source is still absent.
	Deleted bool
	// Inserted: the source rows are new, and the fan-out fills the
	// copies written before them (usually there are none: one Query).
	Inserted bool
}

// MaxRounds bounds the Queries of one fan-out for one source row.
const MaxRounds = 3

// Copier is the entity whose items hold the copies.
func (f *FanOut) Copier() *mapping.Entity { return f.Copy.Copier }

// SourceKey is the source's key column, whose value the copies hold in
// Copy.KeyColumn.
func (f *FanOut) SourceKey() string { return f.Copy.SourceKeyColumn() }

// CopyTarget is one item holding a copy, as the copies' Query saw it: its
// base key and the copy's value (nil when it had none).
type CopyTarget struct {
	Key     map[string]types.AttributeValue
	Current value.Value
}

// FindInput builds the Query that finds the copies of the source row
// whose key column holds key: the copy path's partition, narrowed to the
// copier's items by its sort key's literal prefix.
func (f *FanOut) FindInput(key value.Value) (*dynamodb.QueryInput, error) {
	p := f.Copy.Path
	pk, err := p.PK.Value(mapping.Row{f.Copy.KeyColumn: key})
	if err != nil {
		return nil, nil // a key no copy can hold
	}
	var sk *mapping.SortCondition
	if p.SK != nil {
		sk = p.SK.Condition(nil, nil)
	}
	proj, _ := projection(f.Project())
	expr, err := build(expression.NewBuilder().WithKeyCondition(keyCondition(p.PKAttr, pk, p.SKAttr, sk)).WithProjection(proj))
	if err != nil {
		return nil, internal("building the copies' Query: %v", err)
	}
	in := &dynamodb.QueryInput{TableName: aws.String(f.Table), KeyConditionExpression: expr.KeyCondition(),
		ProjectionExpression: expr.Projection(), ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values()}
	if !p.IsBase() {
		in.IndexName = aws.String(p.Index)
	}
	return in, nil
}

// Project lists what the copies' Query asks for: the base keys, the
// copy, and the type attribute where keys alone cannot tell the copier's
// items from others.
func (f *FanOut) Project() []string {
	m := f.Copier().Mapping()
	attrs := append(m.BaseKeyAttrs(), f.Copy.Column)
	if m.TypeAttribute != "" && !m.Alone(f.Copier(), f.Copy.Path) {
		attrs = append(attrs, m.TypeAttribute)
	}
	return attrs
}

// sourceCondition requires the source item to exist and hold want, or,
// for a deleted source, to be absent still.
func (f *FanOut) sourceCondition(want value.Value) expression.ConditionBuilder {
	if f.Deleted {
		return expression.AttributeNotExists(attrName(f.Copier().Mapping().PartitionKey))
	}
	name := attrName(f.Copy.SourceColumn)
	holds := expression.AttributeNotExists(name)
	if want != nil {
		holds = expression.Equal(name, expression.Value(explainAttr(want)))
	}
	pk := f.Copier().Mapping().PartitionKey
	return expression.And(expression.AttributeExists(attrName(pk)), holds)
}

// copyUpdate builds the update of one copy to want, guarded by the value
// the Query saw, and by more.
func (f *FanOut) copyUpdate(t CopyTarget, want value.Value, more ...expression.ConditionBuilder) (builtExpr, error) {
	name := attrName(f.Copy.Column)
	var ub expression.UpdateBuilder
	switch {
	case want == nil && f.NullValue:
		ub = ub.Set(name, expression.Value(&types.AttributeValueMemberNULL{Value: true}))
	case want == nil:
		ub = ub.Remove(name)
	default:
		ub = ub.Set(name, expression.Value(explainAttr(want)))
	}
	seen := isNull(name)
	if t.Current != nil {
		seen = expression.Equal(name, expression.Value(explainAttr(t.Current)))
	}
	pk := f.Copier().Mapping().PartitionKey
	expr, err := build(expression.NewBuilder().WithUpdate(ub).
		WithCondition(andAll(expression.AttributeExists(attrName(pk)), append([]expression.ConditionBuilder{seen}, more...)...)))
	if err != nil {
		return expr, internal("building a copy's update: %v", err)
	}
	return expr, nil
}

// TransactInput builds one transaction of copy updates: a ConditionCheck
// that the source (keyed srcKey) exists and holds want, then one guarded
// update per target. Each action returns the item it found when its
// condition fails.
func (f *FanOut) TransactInput(srcKey map[string]types.AttributeValue, want value.Value, targets []CopyTarget) (*dynamodb.TransactWriteItemsInput, error) {
	check, err := build(expression.NewBuilder().WithCondition(f.sourceCondition(want)))
	if err != nil {
		return nil, internal("building the source's check: %v", err)
	}
	table := aws.String(f.Table)
	tx := &dynamodb.TransactWriteItemsInput{
		TransactItems: []types.TransactWriteItem{{ConditionCheck: &types.ConditionCheck{TableName: table, Key: srcKey,
			ConditionExpression: check.Condition(), ExpressionAttributeNames: check.Names(), ExpressionAttributeValues: check.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}}}}
	for _, t := range targets {
		expr, err := f.copyUpdate(t, want)
		if err != nil {
			return nil, err
		}
		tx.TransactItems = append(tx.TransactItems, types.TransactWriteItem{Update: &types.Update{TableName: table, Key: t.Key,
			UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
			ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
			ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}})
	}
	return tx, nil
}

// SelfUpdateInput builds the update of a source item that copies itself:
// no transaction may touch one item twice, so its update carries the
// source's check.
func (f *FanOut) SelfUpdateInput(t CopyTarget, want value.Value) (*dynamodb.UpdateItemInput, error) {
	expr, err := f.copyUpdate(t, want, f.sourceCondition(want))
	if err != nil {
		return nil, err
	}
	return &dynamodb.UpdateItemInput{TableName: aws.String(f.Table), Key: t.Key,
		UpdateExpression: expr.Update(), ConditionExpression: expr.Condition(),
		ExpressionAttributeNames: expr.Names(), ExpressionAttributeValues: expr.Values(),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld}, nil
}

// Requests describes the fan-out's requests for one source row: the
// Query that finds the copies, and the transactions that rewrite them.
// what says which value of the source the copies are set to.
func (f *FanOut) requests(what string, repair bool) []*Request {
	m := f.Copier().Mapping()
	src := f.Copy.Source
	title := fmt.Sprintf("fan-out %s.%s from %s.%s", f.Copier().Name, f.Copy.Column, src.Name, f.Copy.SourceColumn)
	var out []*Request
	if in, err := f.FindInput(mapping.Placeholder("{" + src.Name + "." + f.SourceKey() + "}")); err == nil && in != nil {
		r := DescribeRequest(m, "Query", in)
		r.Reads, r.index = []string{f.Copier().Name}, indexKind(f.Copy.Path.Index, f.Copy.Path.Local)
		r.Per = "source row written, repeated while it shows stale copies not yet tried (at most 3)"
		r.Note = title + ": finds the copies"
		switch {
		case repair:
			r.Per = "source row"
		case f.Inserted:
			r.Per = "row inserted (by an upsert, row its put writes new), repeated while it shows copies not yet tried that differ (at most 3)"
			r.Note = title + ": finds the copies written before the row"
		}
		out = append(out, r)
	}
	srcKey, _ := src.BaseKey(explainRow(src, src.Name))
	var want value.Value = mapping.Placeholder("{" + src.Name + "." + f.Copy.SourceColumn + " " + what + "}")
	if f.Deleted {
		want = nil
	}
	target := CopyTarget{Key: map[string]types.AttributeValue{}, Current: mapping.Placeholder("{the value the Query saw}")}
	copier := explainRow(f.Copier(), f.Copier().Name)
	target.Key, _ = f.Copier().BaseKey(copier)
	if tx, err := f.TransactInput(srcKey, want, []CopyTarget{target}); err == nil {
		r := DescribeRequest(m, "TransactWriteItems", tx)
		r.Note = fmt.Sprintf("%s: 1 check + up to %d copy updates (fewer past about 4 MB), one transaction after another; "+
			"a copy whose condition fails is dropped (skipped, or already right) and the others are sent again; "+
			"a failed check of the source means a newer change owns the copies: stop with a conflict", title, CopiesPerTransact)
		out = append(out, r)
	}
	return out
}

// Requests describes the fan-out after a write.
func (f *FanOut) Requests() []*Request { return f.requests("as written", false) }

// CopyCheck lists (CHECK COPIES) or rewrites (REPAIR COPIES) every copy
// of the source rows Read finds that differs from its source: one Query
// of each FanOut's copy path per source row, and for REPAIR one guarded
// transaction of updates per source row and copy.
type CopyCheck struct {
	Source  *mapping.Entity
	Read    Node
	Slots   []Slot
	FanOuts []*FanOut
	Repair  bool
	// Keys are the source keys the WHERE names (id = '3', id IN (...)):
	// those with no source row are checked too, their copies against
	// NULL, as a DELETE whose copies were not all cleared leaves them.
	Keys []value.Value
}

// CopyCheckColumns are the columns CHECK COPIES returns.
var CopyCheckColumns = []Column{{"entity", "S"}, {"key", "S"}, {"column", "S"}, {"copy_value", ""}, {"source", "S"}, {"source_value", ""}}

func (*CopyCheck) requestsBelow() {}

// Inputs implements Node.
func (c *CopyCheck) Inputs() []Node { return []Node{c.Read} }

// Describe implements Node.
func (c *CopyCheck) Describe() (string, []string) {
	if c.Repair {
		return "repair copies of " + c.Source.Name, nil
	}
	return "check copies of " + c.Source.Name, nil
}

// Requests describes the Queries (and, for REPAIR, the transactions).
func (c *CopyCheck) Requests() []*Request {
	var out []*Request
	for _, f := range c.FanOuts {
		rs := f.requests("as read", true)
		if !c.Repair {
			rs = rs[:1]
		}
		out = append(out, rs...)
	}
	return out
}

// RereadInput builds the strongly consistent BatchGetItem that reads the
// copies still pending again (their keys and the copy), to tell which a
// cancelled transaction's failed conditions were on when the backend
// did not say.
func (f *FanOut) RereadInput(keys []map[string]types.AttributeValue) (*dynamodb.BatchGetItemInput, error) {
	m := f.Copier().Mapping()
	proj, _ := projection(append(m.BaseKeyAttrs(), f.Copy.Column))
	expr, err := build(expression.NewBuilder().WithProjection(proj))
	if err != nil {
		return nil, internal("projection: %v", err)
	}
	return &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{f.Table: {Keys: keys,
		ConsistentRead: aws.Bool(true), ProjectionExpression: expr.Projection(), ExpressionAttributeNames: expr.Names()}}}, nil
}
