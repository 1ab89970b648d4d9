package errs

import (
	"slices"
	"strings"
)

// ByNearness returns the candidates ordered by edit distance to name,
// nearest first, ties by name: the order in which to offer them when
// name matches none ("the tables here, nearest first: ...").
func ByNearness(name string, candidates []string) []string {
	out := slices.Clone(candidates)
	key := strings.ToLower(name)
	dist := make(map[string]int, len(out))
	for _, c := range out {
		dist[c] = distance(key, strings.ToLower(c))
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if d := dist[a] - dist[b]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}
