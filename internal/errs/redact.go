package errs

import (
	"os"
	"regexp"
	"strings"
)

// redacted stands for a secret that was removed.
const redacted = "<redacted>"

// The secrets Redact hides, by where they show up. The access key id is
// cut to its first 4 characters (its kind: AKIA long-term, ASIA
// temporary), which is what people need to tell keys apart in a report.
var (
	// Authorization: AWS4-HMAC-SHA256 Credential=AKIA.../20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=..., Signature=...
	// and the same in a presigned query string (X-Amz-Credential, X-Amz-Signature).
	credentialRe = regexp.MustCompile(`(Credential=)([^/%\s,&"]+)`)
	signatureRe  = regexp.MustCompile(`(Signature=)[^\s,&"]+`)
	// Secrets by name: headers (X-Amz-Security-Token: v), query strings,
	// shared config and credentials files (aws_session_token = v), JSON
	// (credential_process output, SSO caches: "SessionToken": "v") and
	// XML (STS answers: <SessionToken>v</SessionToken>).
	secretNames = `x-amz-security-token|aws_secret_access_key|aws_session_token|aws_security_token|secretaccesskey|sessiontoken|secret_access_key|session_token|accesstoken|access_token|refreshtoken|refresh_token|clientsecret|client_secret`
	namedRe     = regexp.MustCompile(`(?i)("?\b(?:` + secretNames + `)"?\s*[:=]\s*"?)([^\s"&,;]+)`)
	xmlRe       = regexp.MustCompile(`(?i)(<(?:SecretAccessKey|SessionToken)>)[^<]+`)
	keyIDRe     = regexp.MustCompile(`(?i)("?\b(?:aws_access_key_id|accesskeyid)"?\s*[:=]\s*"?|<AccessKeyId>)([^\s"&,;<]+)`)
	// Access key ids by their shape, wherever they appear.
	keyShapeRe = regexp.MustCompile(`\b(?:AKIA|ASIA|AROA|AIDA|AGPA|ANPA|ANVA|APKA|ABIA|ACCA)[A-Z0-9]{12,}\b`)
)

// minSecretLen keeps Redact from hiding short values of the environment
// that are not real credentials (DynamoDB Local's dummy "dynosql"), which
// would blank that word everywhere. Real secret keys are 40 characters,
// key ids 20, session tokens hundreds.
const minSecretLen = 16

// Redact returns s with every credential it holds hidden: the secret key
// and session token of the environment and any value named like one, the
// signature of a signed request, and access key ids beyond their first 4
// characters. Everything that prints what came from the AWS SDK (the
// --debug log, errors) passes through it.
func Redact(s string) string {
	for _, name := range []string{"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN"} {
		if v := os.Getenv(name); len(v) >= minSecretLen {
			s = strings.ReplaceAll(s, v, redacted)
		}
	}
	if v := os.Getenv("AWS_ACCESS_KEY_ID"); len(v) >= minSecretLen {
		s = strings.ReplaceAll(s, v, keyPrefix(v))
	}
	s = credentialRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := credentialRe.FindStringSubmatch(m)
		return sub[1] + keyPrefix(sub[2])
	})
	s = signatureRe.ReplaceAllString(s, "${1}"+redacted)
	s = namedRe.ReplaceAllString(s, "${1}"+redacted)
	s = xmlRe.ReplaceAllString(s, "${1}"+redacted)
	s = keyIDRe.ReplaceAllStringFunc(s, func(m string) string {
		sub := keyIDRe.FindStringSubmatch(m)
		return sub[1] + keyPrefix(sub[2])
	})
	return keyShapeRe.ReplaceAllStringFunc(s, keyPrefix)
}

// keyPrefix keeps an access key id's first 4 characters. It returns its
// own output unchanged, so Redact can run twice over the same text.
func keyPrefix(id string) string {
	if len(id) <= 4 || strings.HasSuffix(id, "****") {
		return id
	}
	return id[:4] + "****"
}
