package planner_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/planner"
)

// A value whose text looks like a placeholder ("USER#3", "a:1") is shown
// as it is: names and values are put in in one pass.
func TestDescribeRequestPutsInNamesAndValuesOnce(t *testing.T) {
	m := loadMapping(t, "school")
	in := &dynamodb.QueryInput{TableName: aws.String("School"),
		KeyConditionExpression:   aws.String("#0 = :0 AND begins_with (#1, :1)"),
		ExpressionAttributeNames: map[string]string{"#0": "PK", "#1": "SK", "#3": "oops"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":0": &types.AttributeValueMemberS{Value: "USER#3"}, ":1": &types.AttributeValueMemberS{Value: "a:0"}}}
	got := planner.DescribeRequest(m, "Query", in).Key
	if want := `PK = "USER#3" AND begins_with (SK, "a:0")`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
