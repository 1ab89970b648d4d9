package backend

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// firstInexact finds a number float64 would change wherever a request
// holds it, and passes the numbers minidyn gives back as written.
func TestFirstInexactFindsNumbersFloat64Changes(t *testing.T) {
	n := func(s string) types.AttributeValue { return &types.AttributeValueMemberN{Value: s} }
	put := func(av types.AttributeValue) *dynamodb.TransactWriteItemsInput {
		return &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{ConditionCheck: &types.ConditionCheck{TableName: aws.String("T"), Key: map[string]types.AttributeValue{"PK": n("1")}}},
			{Put: &types.Put{TableName: aws.String("T"), Item: map[string]types.AttributeValue{
				"nested": &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{
					"list": &types.AttributeValueMemberL{Value: []types.AttributeValue{av}}}}}}},
		}}
	}
	for _, c := range []struct {
		in     any
		stored string // "" when every number is kept
	}{
		{put(n("0.1")), ""},
		{put(n("1e2")), ""},
		{put(n("-12345678901234.5")), ""},
		{put(n("9007199254740993")), "9007199254740992"},
		{put(n("0.1000000000000000000001")), "0.1"},
		{put(&types.AttributeValueMemberNS{Value: []string{"1", "12345678901234567890123"}}), "12345678901234568000000"},
		{&dynamodb.QueryInput{ExpressionAttributeValues: map[string]types.AttributeValue{":v": n("1e400")}}, "an error (out of range)"},
	} {
		_, stored, found := firstInexact(reflect.ValueOf(c.in))
		if found != (c.stored != "") || stored != c.stored {
			t.Errorf("%+v: found %v, stored as %q; want %q", c.in, found, stored, c.stored)
		}
	}
}
