// Command byhand is what dynosql's process figures (BENCHMARKS.md) are
// compared with: aws-sdk-go-v2 code sending the requests an expert would
// send for the same answer, and printing it as dynosql's --format does.
//
//	byhand -endpoint URL courses FILE   a student's courses for each statement of FILE
//	byhand -endpoint URL stream ID      the enrollments of student ID, as JSON lines
//
// courses reads the student of each statement from the dynosql script
// FILE (WHERE s.id = '...'), so that both sides read the same input;
// for each it sends one Query of the student's partition and one
// BatchGetItem of the courses, and prints tab-separated rows under a
// header, as --format tsv does. stream pages one Query through the
// student's partition, projecting the two columns it prints.
//
// A course roster, pipelined by hand, is a command of its own to add
// here beside these.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const table = "School"

func main() {
	endpoint := flag.String("endpoint", "", "DynamoDB endpoint URL")
	flag.Parse()
	if *endpoint == "" || flag.NArg() != 2 {
		fmt.Fprintln(os.Stderr, "usage: byhand -endpoint URL courses FILE | stream ID")
		os.Exit(2)
	}
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRegion("us-east-1"),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider("bench", "bench", "")))
	if err != nil {
		fail(err)
	}
	c := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = endpoint })
	out := bufio.NewWriter(os.Stdout)
	switch flag.Arg(0) {
	case "courses":
		err = courses(ctx, c, out, flag.Arg(1))
	case "stream":
		err = stream(ctx, c, out, flag.Arg(1))
	default:
		err = fmt.Errorf("unknown command %s", flag.Arg(0))
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "byhand:", err)
	os.Exit(1)
}

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

func str(item map[string]types.AttributeValue, attr string) string {
	if v, ok := item[attr].(*types.AttributeValueMemberS); ok {
		return v.Value
	}
	return ""
}

var studentOf = regexp.MustCompile(`s\.id = '([^']*)'`)

// courses prints a student's courses for each statement of the script.
func courses(ctx context.Context, c *dynamodb.Client, out io.Writer, file string) error {
	script, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	for _, m := range studentOf.FindAllStringSubmatch(string(script), -1) {
		if err := studentCourses(ctx, c, out, m[1]); err != nil {
			return err
		}
	}
	return nil
}

// studentCourses sends one Query of the student's partition (profile and
// enrollment edges), then one BatchGetItem of the courses.
func studentCourses(ctx context.Context, c *dynamodb.Client, out io.Writer, id string) error {
	q, err := c.Query(ctx, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ProjectionExpression:      aws.String("SK, #n, grade, course_id"),
		ExpressionAttributeNames:  map[string]string{"#n": "name"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("STU#" + id)},
	})
	if err != nil {
		return err
	}
	name := ""
	var edges []map[string]types.AttributeValue
	var keys []map[string]types.AttributeValue
	for _, item := range q.Items {
		switch sk := str(item, "SK"); {
		case sk == "PROFILE":
			name = str(item, "name")
		case strings.HasPrefix(sk, "ENROLL#CRS#"):
			edges = append(edges, item)
			keys = append(keys, map[string]types.AttributeValue{"PK": s("CRS#" + str(item, "course_id")), "SK": s("META")})
		}
	}
	fmt.Fprint(out, "name\ttitle\tgrade\n")
	if len(keys) == 0 {
		return nil
	}
	titles := map[string]string{}
	req := map[string]types.KeysAndAttributes{table: {Keys: keys, ProjectionExpression: aws.String("id, title")}}
	for len(req) > 0 {
		b, err := c.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
		if err != nil {
			return err
		}
		for _, item := range b.Responses[table] {
			titles[str(item, "id")] = str(item, "title")
		}
		req = b.UnprocessedKeys
	}
	for _, e := range edges {
		if title, ok := titles[str(e, "course_id")]; ok {
			fmt.Fprintf(out, "%s\t%s\t%s\n", name, title, str(e, "grade"))
		}
	}
	return nil
}

// stream prints the student's enrollments as JSON lines, a Query page at
// a time.
func stream(ctx context.Context, c *dynamodb.Client, out io.Writer, id string) error {
	type row struct {
		CourseID string  `json:"course_id"`
		Grade    *string `json:"grade"`
	}
	enc := json.NewEncoder(out)
	p := dynamodb.NewQueryPaginator(c, &dynamodb.QueryInput{
		TableName:                 aws.String(table),
		KeyConditionExpression:    aws.String("PK = :pk AND begins_with(SK, :sk)"),
		ProjectionExpression:      aws.String("course_id, grade"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": s("STU#" + id), ":sk": s("ENROLL#CRS#")},
	})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		for _, item := range page.Items {
			r := row{CourseID: str(item, "course_id")}
			if g, ok := item["grade"].(*types.AttributeValueMemberS); ok {
				r.Grade = &g.Value
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}
