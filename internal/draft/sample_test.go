package draft_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/draft"
)

// pagedTable answers Scans like DynamoDB over n items, pages of at most
// page items (as the 1 MB limit cuts them), costing 0.5 units a page.
type pagedTable struct {
	n, page int
	limits  []int32 // the Limit of each Scan
}

func (p *pagedTable) Scan(_ context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	start := 0
	if k := in.ExclusiveStartKey["PK"]; k != nil {
		_, _ = fmt.Sscan(k.(*types.AttributeValueMemberS).Value, &start)
		start++
	}
	p.limits = append(p.limits, aws.ToInt32(in.Limit))
	end := min(start+int(aws.ToInt32(in.Limit)), start+p.page, p.n)
	out := &dynamodb.ScanOutput{ConsumedCapacity: &types.ConsumedCapacity{CapacityUnits: aws.Float64(0.5)}}
	for i := start; i < end; i++ {
		out.Items = append(out.Items, draft.Item{"PK": &types.AttributeValueMemberS{Value: fmt.Sprint(i)}})
	}
	if end < p.n {
		out.LastEvaluatedKey = draft.Item{"PK": &types.AttributeValueMemberS{Value: fmt.Sprint(end - 1)}}
	}
	return out, nil
}

func TestASampleReadsAtMostNItemsAndAddsUpItsCost(t *testing.T) {
	tests := []struct {
		name           string
		items, page, n int
		want           int
		limits         []int32
	}{
		{"one page holds the sample", 50, 100, 10, 10, []int32{10}},
		{"pages until the sample is full", 250, 100, 220, 220, []int32{220, 120, 20}},
		{"a small table ends the sample early", 30, 100, 1000, 30, []int32{1000}},
		{"pages until the table ends", 150, 100, 1000, 150, []int32{1000, 900}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &pagedTable{n: tt.items, page: tt.page}
			items, cost, err := draft.Sample(context.Background(), p, "T", tt.n)
			if err != nil {
				t.Fatal(err)
			}
			if len(items) != tt.want || cost.Requests != len(tt.limits) || cost.Capacity != 0.5*float64(len(tt.limits)) {
				t.Errorf("%d items, %+v; want %d items in %d requests", len(items), cost, tt.want, len(tt.limits))
			}
			if fmt.Sprint(p.limits) != fmt.Sprint(tt.limits) {
				t.Errorf("Scan limits %v, want %v", p.limits, tt.limits)
			}
		})
	}
}
