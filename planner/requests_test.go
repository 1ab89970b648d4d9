package planner_test

import (
	"reflect"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/parser"
	"github.com/dynosql/dynosql/planner"
)

// A cached plan runs many times, at once from several goroutines: the
// requests a read builds once must come out equal to a fresh build every
// time, and a caller changing what it got (the executor pages by setting
// ExclusiveStartKey) must not change what the next caller gets. Run
// under -race, the goroutines also check that first builds may race.
func TestRequestsBuiltOnceAreCopies(t *testing.T) {
	m := loadMapping(t, "school")
	steps := func() (q *planner.Query, g *planner.GetItem, bg *planner.BatchGet) {
		p := planner.New(m, planner.Options{})
		for _, sql := range []string{
			"SELECT grade FROM enrollments WHERE student_id = 'a91' AND course_id > 'c' AND grade = 'A'",
			"SELECT name FROM students WHERE id = 'a91'",
			"SELECT title FROM courses WHERE id IN ('cs101', 'math204')",
		} {
			st, err := parser.Parse(sql)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := p.Plan(sql, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			planner.Walk(plan.Root, func(n planner.Node) {
				switch x := n.(type) {
				case *planner.Query:
					q = x
				case *planner.GetItem:
					g = x
				case *planner.BatchGet:
					bg = x
				}
			})
		}
		if q == nil || g == nil || bg == nil {
			t.Fatal("the statements no longer plan a Query, a GetItem and a BatchGet")
		}
		return q, g, bg
	}
	q, g, bg := steps()
	fq, fg, fbg := steps() // built once each, below: the fresh builds
	keys := []map[string]types.AttributeValue{{"PK": &types.AttributeValueMemberS{Value: "CRS#cs101"}}}
	wantQ, err := fq.Build(planner.Explaining)
	if err != nil {
		t.Fatal(err)
	}
	wantG, err := fg.Build(planner.Explaining)
	if err != nil {
		t.Fatal(err)
	}
	wantBG, err := fbg.Build(keys)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 3 {
				ins, err := q.Build(planner.Explaining)
				if err != nil || len(ins) != 1 || !reflect.DeepEqual(ins, wantQ) {
					t.Errorf("Query built %d inputs (%v), want %+v", len(ins), err, *wantQ[0])
					if len(ins) == 1 {
						t.Errorf("the one built: %+v", *ins[0])
					}
					return
				}
				ins[0].ExclusiveStartKey = map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: "x"}}
				ins[0].ExpressionAttributeNames["#changed"] = "x"
				ins[0].ExpressionAttributeValues[":changed"] = &types.AttributeValueMemberS{Value: "x"}
				in, err := g.Build(planner.Explaining)
				if err != nil || !reflect.DeepEqual(in, wantG) {
					t.Errorf("GetItem built %+v, %v; want %+v", in, err, wantG)
					return
				}
				in.Key["changed"] = &types.AttributeValueMemberS{Value: "x"}
				in.ExpressionAttributeNames["#changed"] = "x"
				in.TableName = aws.String("changed")
				b, err := bg.Build(keys)
				if err != nil || !reflect.DeepEqual(b, wantBG) {
					t.Errorf("BatchGet built %+v, %v; want %+v", b, err, wantBG)
					return
				}
				for _, ka := range b.RequestItems {
					ka.ExpressionAttributeNames["#changed"] = "x"
				}
			}
		})
	}
	wg.Wait()
}
