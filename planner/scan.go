package planner

import (
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/dynosql/dynosql/mapping"
	"github.com/dynosql/dynosql/parser"
)

// Scan reads a whole index, or the table, in parallel segments, each
// paged to the end. The planner makes one only as a statement's first
// read, and only for an index the mapping marks scan: true (a sparse
// index whose Scan is the published access pattern, and then only when
// the WHERE keeps to the items it holds), or for any table when the
// session allows scans (AdHoc: the executor then warns with its size).
type Scan struct {
	Table      string
	Index      string // "" for the table
	Local      bool
	Segments   int
	Filter     parser.Expr
	Reads      []Read
	Project    []string
	Consistent bool
	AdHoc      bool
	// Size is what DescribeTable last said of the index or table.
	Size mapping.Size
	m    *mapping.Mapping
}

// scanSegments is how many segments a Scan reads in parallel.
const scanSegments = 4

// Inputs implements Node: a Scan reads no other step.
func (s *Scan) Inputs() []Node { return nil }

// Build builds the Scan request of one segment.
func (s *Scan) Build(segment int) (*dynamodb.ScanInput, error) {
	eb := expression.NewBuilder()
	if s.Filter != nil {
		f, err := condition(s.Filter)
		if err != nil {
			return nil, err
		}
		eb = eb.WithFilter(f)
	}
	if p, ok := projection(s.Project); ok {
		eb = eb.WithProjection(p)
	}
	in := &dynamodb.ScanInput{TableName: aws.String(s.Table), ConsistentRead: consistentRead(s.Consistent),
		Segment: aws.Int32(int32(segment)), TotalSegments: aws.Int32(int32(s.Segments))}
	if s.Filter != nil || len(s.Project) > 0 {
		expr, err := build(eb)
		if err != nil {
			return nil, internal("building the Scan expression: %v", err)
		}
		in.FilterExpression, in.ProjectionExpression = expr.Filter(), expr.Projection()
		in.ExpressionAttributeNames, in.ExpressionAttributeValues = expr.Names(), expr.Values()
	}
	if s.Index != "" {
		in.IndexName = aws.String(s.Index)
	}
	in.Select = localSelect(s.Local, in.ProjectionExpression)
	return in, nil
}

// Requests describes the Scan sent.
func (s *Scan) Requests() []*Request {
	r := &Request{Op: "Scan", Table: s.Table, Index: s.Index}
	if in, err := s.Build(0); err == nil {
		r = DescribeRequest(s.m, "Scan", in)
	}
	r.Reads, r.Per, r.index = readList(s.Reads), fmt.Sprintf("segment, %d in parallel, each paged to the end", s.Segments), indexKind(s.Index, s.Local)
	what := "the table"
	if s.Index != "" {
		what = "the index"
	}
	r.Note = fmt.Sprintf("reads all of %s: about %d items, %d bytes when DynamoDB last counted (DescribeTable)", what, s.Size.Items, s.Size.Bytes)
	if s.AdHoc {
		r.Note += "; allowed ad hoc (--allow-scan)"
	}
	return []*Request{r}
}

// Describe implements Node.
func (s *Scan) Describe() (string, []string) { return describeOne(s.Requests()[0]) }

// scanAccess returns a Scan of slot s when one may serve: an index the
// mapping marks scan: true that holds every row the WHERE keeps, or,
// when scans are allowed, the table.
func (b *selectBuilder) scanAccess(s int) *access {
	sl, f := b.sc.slots[s], b.facts(s)
	for _, p := range sl.Entity.Paths() {
		ix := b.mapping(s).Indexes[p.Index]
		if p.Local && b.p.opts.Quirks.NoLocalFetch && ix.Projection != "ALL" {
			continue // the embedded server would return only what it projects
		}
		if !p.IsBase() && ix.Scan && len(sparseColumns(p, f)) == 0 {
			return &access{slot: s, path: p, scan: true}
		}
	}
	if b.p.opts.AllowScan {
		return &access{slot: s, path: sl.Entity.Base(), scan: true}
	}
	return nil
}

// scan plans the Scan of an access.
func (b *selectBuilder) scan(a *access) *Scan {
	rd := b.read(a.slot)
	m := b.mapping(a.slot)
	s := &Scan{Table: m.Table, Index: a.path.Index, Local: a.path.Local, Segments: scanSegments, Reads: []Read{rd},
		Consistent: b.consistent(a.path), AdHoc: a.path.IsBase() || !m.Indexes[a.path.Index].Scan, Size: m.Size, m: m}
	if !a.path.IsBase() {
		s.Size = m.Indexes[a.path.Index].Size
	}
	if b.p.opts.Quirks.NoSegments {
		s.Segments = 1
	}
	s.Project = b.project(s.Reads, a.path)
	return s
}
