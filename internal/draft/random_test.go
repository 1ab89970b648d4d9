package draft_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/draft"
	"github.com/dynosql/dynosql/mapping"
)

// randomKey builds a key value from labels, values and separators, as
// designs and accidents write them.
func randomKey(r *rand.Rand) string {
	labels := []string{"USER", "ORDER", "u", "p", "comm", "info", "PROFILE", "META", "#METADATA", "", "count", "x{y}", "a b"}
	values := []string{"u1", "u2", "42", "2024-05-01", "2024-05-01T10:00:00", "alice", "bob", "Zoë", "o#1", "", "-1.5", "{id}"}
	var parts []string
	for range 1 + r.IntN(4) {
		if r.IntN(2) == 0 {
			parts = append(parts, labels[r.IntN(len(labels))])
		} else {
			parts = append(parts, values[r.IntN(len(values))])
		}
	}
	seps := []string{"#", "#", "#", "|", ":", ""}
	return strings.Join(parts, seps[r.IntN(len(seps))])
}

// Whatever the items, a draft loads: Draft fails only on a bug.
func TestADraftOfAnyItemsLoads(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	attrs := []string{"name", "_et", "follower#", "a{b}", "Type", "GSI1PK", "total", "id", "PK2"}
	for round := range 500 {
		tbl := draft.Table{Name: "Things", PartitionKey: "PK", KeyTypes: map[string]string{"PK": "S"}}
		if r.IntN(3) > 0 {
			tbl.SortKey = "SK"
			tbl.KeyTypes["SK"] = []string{"S", "S", "N"}[r.IntN(3)]
		}
		if r.IntN(2) == 0 {
			tbl.Indexes = append(tbl.Indexes, draft.Index{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK", Projection: "ALL"})
			tbl.KeyTypes["GSI1PK"], tbl.KeyTypes["GSI1SK"] = "S", "S"
		}
		if tbl.SortKey != "" && r.IntN(3) == 0 {
			tbl.Indexes = append(tbl.Indexes, draft.Index{Name: "LSI1", PartitionKey: "PK", SortKey: "total", Local: true, Projection: "KEYS_ONLY"})
			tbl.KeyTypes["total"] = "N"
		}
		var items []draft.Item
		for range r.IntN(30) {
			it := draft.Item{"PK": s(randomKey(r))}
			if it["PK"].(*types.AttributeValueMemberS).Value == "" {
				continue // DynamoDB refuses empty keys
			}
			switch tbl.KeyTypes["SK"] {
			case "S":
				v := randomKey(r)
				if v == "" {
					continue
				}
				it["SK"] = s(v)
			case "N":
				it["SK"] = &types.AttributeValueMemberN{Value: fmt.Sprint(r.IntN(5))}
			}
			for _, a := range attrs {
				if r.IntN(3) == 0 {
					it[a] = s([]string{"user", "order", "u1", "42", "x"}[r.IntN(5)])
				}
			}
			if r.IntN(2) == 0 {
				it["GSI1SK"] = s(randomKey(r) + "x")
			}
			if _, ok := it["GSI1PK"]; ok && it["GSI1PK"].(*types.AttributeValueMemberS).Value == "" {
				delete(it, "GSI1PK")
			}
			if r.IntN(2) == 0 {
				it["total"] = &types.AttributeValueMemberN{Value: fmt.Sprint(r.IntN(100))}
			} else {
				delete(it, "total")
			}
			items = append(items, it)
		}
		out, err := draft.Draft(draft.Input{Table: tbl, Items: items})
		if err != nil {
			t.Fatalf("round %d: %v\nitems: %v", round, err, items)
		}
		if _, err := mapping.Parse("draft", out); err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, out)
		}
	}
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
