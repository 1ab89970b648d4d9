package backend

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// firstUnheld finds, wherever a request holds it, a number float64 would
// change or an empty list or map, which minidyn would give back as
// something else; it passes what minidyn gives back as written.
func TestFirstUnheldFindsWhatMinidynChanges(t *testing.T) {
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
		in   any
		says string // "" when minidyn keeps every value
	}{
		{put(n("0.1")), ""},
		{put(n("1e2")), ""},
		{put(n("-12345678901234.5")), ""},
		{put(&types.AttributeValueMemberS{Value: ""}), ""},
		{put(&types.AttributeValueMemberL{Value: []types.AttributeValue{n("1")}}), ""},
		{put(n("9007199254740993")), "9007199254740993 would be stored as 9007199254740992"},
		{put(n("0.1000000000000000000001")), "would be stored as 0.1"},
		{put(&types.AttributeValueMemberNS{Value: []string{"1", "12345678901234567890123"}}), "would be stored as 12345678901234568000000"},
		{&dynamodb.QueryInput{ExpressionAttributeValues: map[string]types.AttributeValue{":v": n("1e400")}}, "would be stored as an error (out of range)"},
		{put(&types.AttributeValueMemberL{}), "cannot hold an empty list"},
		{put(&types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}), "cannot hold an empty map"},
		{put(&types.AttributeValueMemberB{}), "cannot hold an empty binary"},
		{put(&types.AttributeValueMemberB{Value: []byte{0}}), ""},
		{&dynamodb.UpdateItemInput{ExpressionAttributeValues: map[string]types.AttributeValue{":v": &types.AttributeValueMemberL{}}}, "cannot hold an empty list"},
	} {
		err := firstUnheld(reflect.ValueOf(c.in))
		switch {
		case c.says == "" && err != nil:
			t.Errorf("%+v: %v; want it sent", c.in, err)
		case c.says != "" && (err == nil || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%+v: %v; want an error saying %q", c.in, err, c.says)
		}
	}
}
