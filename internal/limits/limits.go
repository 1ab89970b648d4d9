// Package limits holds the DynamoDB limits dynosql plans and sends by
// (DYNAMODB.md), and the size estimates that keep requests under them.
package limits

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const (
	// BatchGetKeys is BatchGetItem's limit on keys a request (2.1).
	BatchGetKeys = 100
	// TransactItems is TransactWriteItems' limit on actions (3.1).
	TransactItems = 100
	// TransactBytes keeps a transaction under DynamoDB's 4 MB limit, with
	// room for the request's own framing (3.1).
	TransactBytes = 4<<20 - 64<<10
	// ExpressionBytes is DynamoDB's limit on the length of an expression
	// (a ConditionExpression, say), in bytes (8.3).
	ExpressionBytes = 4096
	// ExpressionOperators is DynamoDB's limit on the operators and
	// functions of an expression (8.3): a condition's comparisons,
	// functions and ANDs count too, so a condition of a = :a AND ...
	// compares at most 150 attributes (checked on DynamoDB Local).
	ExpressionOperators = 300
	// PartitionKeyBytes is the longest string or binary a partition key
	// holds, of the table or an index (7.4).
	PartitionKeyBytes = 2048
	// SortKeyBytes is the same for a sort key.
	SortKeyBytes = 1024
	// ItemBytes is the largest item DynamoDB stores, attribute names
	// included (8.1).
	ItemBytes = 400 << 10
	// KeyValues bounds the keys an IN list (or several) may multiply into
	// for one read: past it, a statement is refused rather than sent as
	// thousands of requests.
	KeyValues = 1000
	// JoinCacheItems bounds the items a join keeps from the partitions it
	// queried, so that outer rows met later with the same key are not sent
	// again; past it only reads that rows in flight want are kept.
	JoinCacheItems = 10000
)

// Batches splits actions of the given estimated sizes, in order, into
// transactions of at most maxItems actions whose sizes, plus reserved
// bytes the transaction carries besides, stay under TransactBytes. It
// returns the end index (exclusive) of each; an action too large for any
// transaction goes alone, for DynamoDB to refuse.
func Batches(sizes []int, maxItems, reserved int) []int {
	var ends []int
	n, size := 0, reserved
	for i, s := range sizes {
		if n == maxItems || (n > 0 && size+s > TransactBytes) {
			ends = append(ends, i)
			n, size = 0, reserved
		}
		n++
		size += s
	}
	return append(ends, len(sizes))
}

// ItemSize estimates the size DynamoDB counts for an item: attribute
// names plus values (DYNAMODB.md 8.1). A number counts about a byte for
// two digits.
func ItemSize(item map[string]types.AttributeValue) int {
	return itemSize(item, func(n string) int { return len(n)/2 + 1 })
}

// ItemSizeAtLeast is a size DynamoDB counts no less than for an item: a
// number counts one byte, whatever its digits (trailing zeros and signs
// cost nothing). Past ItemBytes, DynamoDB refuses the item for sure.
func ItemSizeAtLeast(item map[string]types.AttributeValue) int {
	return itemSize(item, func(string) int { return 1 })
}

// AttrSizeAtLeast is ItemSizeAtLeast of one attribute.
func AttrSizeAtLeast(name string, av types.AttributeValue) int {
	return len(name) + valueSize(av, func(string) int { return 1 })
}

func itemSize(item map[string]types.AttributeValue, number func(string) int) int {
	size := 0
	for name, av := range item {
		size += len(name) + valueSize(av, number)
	}
	return size
}

func valueSize(av types.AttributeValue, number func(string) int) int {
	switch x := av.(type) {
	case *types.AttributeValueMemberS:
		return len(x.Value)
	case *types.AttributeValueMemberN:
		return number(x.Value)
	case *types.AttributeValueMemberB:
		return len(x.Value)
	case *types.AttributeValueMemberBOOL, *types.AttributeValueMemberNULL:
		return 1
	case *types.AttributeValueMemberSS:
		n := 0
		for _, s := range x.Value {
			n += len(s)
		}
		return n
	case *types.AttributeValueMemberNS:
		n := 0
		for _, s := range x.Value {
			n += number(s)
		}
		return n
	case *types.AttributeValueMemberBS:
		n := 0
		for _, b := range x.Value {
			n += len(b)
		}
		return n
	case *types.AttributeValueMemberL:
		n := 3
		for _, e := range x.Value {
			n += 1 + valueSize(e, number)
		}
		return n
	case *types.AttributeValueMemberM:
		n := 3
		for k, e := range x.Value {
			n += 1 + len(k) + valueSize(e, number)
		}
		return n
	}
	return 0
}
