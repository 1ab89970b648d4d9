package draft_test

import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// describe returns what DynamoDB describes after the CreateTable request.
func describe(in *dynamodb.CreateTableInput) *types.TableDescription {
	d := &types.TableDescription{TableName: in.TableName, KeySchema: in.KeySchema, AttributeDefinitions: in.AttributeDefinitions}
	for _, g := range in.GlobalSecondaryIndexes {
		d.GlobalSecondaryIndexes = append(d.GlobalSecondaryIndexes, types.GlobalSecondaryIndexDescription{
			IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection,
		})
	}
	for _, l := range in.LocalSecondaryIndexes {
		d.LocalSecondaryIndexes = append(d.LocalSecondaryIndexes, types.LocalSecondaryIndexDescription{
			IndexName: l.IndexName, KeySchema: l.KeySchema, Projection: l.Projection,
		})
	}
	_ = aws.String
	return d
}
