package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// money turns an amount in cents into a JSON number with no trailing
// zeros (4000 -> 40, 1250 -> 12.5, -199 -> -1.99), the text DynamoDB keeps
// for it, so the dataset and what comes back from a table compare as text.
func money(cents int) json.Number {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	switch {
	case cents%100 == 0:
		return json.Number(fmt.Sprintf("%s%d", sign, cents/100))
	case cents%10 == 0:
		return json.Number(fmt.Sprintf("%s%d.%d", sign, cents/100, cents%100/10))
	default:
		return json.Number(fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100))
	}
}

// uuid draws a version-4 style UUID from r (deterministic for a seeded r).
func uuid(r *rand.Rand) string {
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x",
		r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, 0x8000|r.Uint32()&0x3fff, r.Uint64()&0xffffffffffff)
}

// isoSec formats t as the designs' timestamps do: 2019-04-16T10:12:54.
func isoSec(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }

// pick returns one element of s.
func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// sample returns n distinct elements of s in a random order (s unchanged).
func sample[T any](r *rand.Rand, s []T, n int) []T {
	perm := r.Perm(len(s))
	out := make([]T, 0, n)
	for _, i := range perm[:n] {
		out = append(out, s[i])
	}
	return out
}

// must panics on a broken invariant of a generator: the facts README.md
// promises are checked where the data is made, not only by the tests.
func must(ok bool, format string, args ...any) {
	if !ok {
		panic(fmt.Sprintf(format, args...))
	}
}
