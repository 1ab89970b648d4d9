package backend

import (
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/dynosql/dynosql/internal/errs"
)

// regions are the AWS regions that serve DynamoDB (commercial, China,
// GovCloud, European Sovereign Cloud and the isolated ones), for telling
// a typo ("eu-wset-1") from a region. The SDK keeps its own list in an
// internal package, so this one is ours; a region launched later and
// missing here is still let through (see checkRegion).
var regions = []string{
	"af-south-1",
	"ap-east-1", "ap-east-2",
	"ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
	"ap-south-1", "ap-south-2",
	"ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4",
	"ap-southeast-5", "ap-southeast-6", "ap-southeast-7",
	"ca-central-1", "ca-west-1",
	"cn-north-1", "cn-northwest-1",
	"eu-central-1", "eu-central-2",
	"eu-north-1",
	"eu-south-1", "eu-south-2",
	"eu-west-1", "eu-west-2", "eu-west-3",
	"eusc-de-east-1",
	"il-central-1",
	"me-central-1", "me-south-1",
	"mx-central-1",
	"sa-east-1",
	"us-east-1", "us-east-2",
	"us-gov-east-1", "us-gov-west-1",
	"us-west-1", "us-west-2",
	"us-iso-east-1", "us-iso-west-1", "us-isob-east-1", "us-isof-east-1", "us-isof-south-1",
	"eu-isoe-west-1",
}

// regionShape is what every AWS region name looks like: a prefix, one or
// more words, a number (us-east-1, us-gov-west-1, ap-southeast-7).
var regionShape = regexp.MustCompile(`^[a-z]{2,4}(-[a-z]+)+-[0-9]+$`)

// letters keeps the letters of a region name, so that two names that
// differ in their number only ("ap-southeast-7", "ap-southeast-8") compare
// equal.
func letters(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, s)
}

// checkRegion refuses, before anything is sent, a region no AWS endpoint
// answers for: none at all, a name not shaped like a region, or a near
// miss of a known one ("eu-wset-1"). A well-shaped name that is neither
// known nor a letter-for-letter neighbour of one may be a region newer
// than this list, and passes.
func checkRegion(region, source string) error {
	const local = "for DynamoDB Local, give --endpoint-url http://localhost:8000 instead"
	if region == "" {
		return errs.New(errs.Invalid, "no AWS region given, and no endpoint").
			WithHint("give --region (such as us-east-1), or set AWS_REGION or region in ~/.aws/config; %s", local)
	}
	if slices.Contains(regions, region) {
		return nil
	}
	near := errs.Nearest(region, regions)
	shaped := regionShape.MatchString(region)
	if shaped && (near == "" || letters(near) == letters(region)) {
		return nil
	}
	e := errs.New(errs.Invalid, "unknown AWS region %q (%s)", region, source)
	if near != "" {
		e.Message += "; did you mean " + near + "?"
		return e.WithHint("give a region as AWS names it, such as %s; %s", near, local)
	}
	return e.WithHint("give a region as AWS names it, such as us-east-1 or eu-west-1 (`aws ec2 describe-regions` lists them); %s", local)
}

// regionSource says where the SDK found the region, for messages.
func regionSource(o Options) string {
	switch {
	case o.Region != "":
		return "from --region"
	case os.Getenv("AWS_REGION") != "":
		return "from AWS_REGION"
	case os.Getenv("AWS_DEFAULT_REGION") != "":
		return "from AWS_DEFAULT_REGION"
	}
	return "from the shared config file"
}
