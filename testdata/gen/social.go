package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// The social network facts tests rely on; README.md lists them.
const (
	snUsers     = 140
	snCeleb     = "12345" // hyuklee: followed by 120 users
	snCelebFans = 120
	snLurker    = "99999" // follows no one, followed by no one, no post
	snPosts     = 160
	snTimelines = 10 // users with timeline items, snCeleb among them
	snTimeline  = 20 // at most this many items in a timeline
	snTTL       = 30 * 24 * 3600
)

var snNamed = []struct{ id, name, content string }{
	{snCeleb, "hyuklee", "My name is Hyuk Lee"},
	{"23456", "minji", "김민지 — 서울"},
	{"34567", "orjan", "Ørjan from Bergen"},
	{"45678", "zoe", "Zoë, she/her"},
	{"56789", "carlos", "Backend dev #golang"},
	{"67890", "priya", ""},
	{"78912", "tomasz", "Łódź → Berlin"},
	{"78901", "aiko", "写真が好き"},
	{snLurker, "lurker", ""},
}

var snHandles = []string{"alex", "sam", "jo", "kim", "lee", "max", "noa", "ola", "pat", "ren", "sky", "tai", "uma", "val"}

var snTexts = []string{
	"Loving the new #singletable design",
	"Coffee first ☕",
	"Release day! #dynamodb #aws",
	"Ferien am Bodensee",
	"Who else is at re:Invent? #reinvent",
	"Weekend hike 🏔",
	"New blog post: modeling followers #nosql",
	"점심 뭐 먹지?",
}

type snPost struct {
	id, author string
	ts         int
}

func social() []line {
	r := rand.New(rand.NewPCG(2024, 6))
	var out []line

	// Users.
	var users []string
	info := map[string][2]string{}
	for _, u := range snNamed {
		users = append(users, u.id)
		info[u.id] = [2]string{u.name, u.content}
	}
	for len(users) < snUsers {
		id := fmt.Sprintf("%05d", 10000+r.IntN(90000))
		if _, dup := info[id]; dup {
			continue
		}
		users = append(users, id)
		info[id] = [2]string{fmt.Sprintf("%s%d", pick(r, snHandles), r.IntN(1000)), ""}
	}
	sort.Strings(users)
	for _, u := range users {
		row := map[string]any{"user_id": u, "name": info[u][0]}
		if info[u][1] != "" {
			row["content"] = info[u][1]
		} else if u != snLurker && r.IntN(3) > 0 {
			row["content"] = "Hi, I am " + info[u][0]
		}
		if u != snLurker && r.IntN(5) > 0 {
			row["imageUrl"] = "s3://sns-profile-images/" + u + ".png"
		}
		out = append(out, line{"users", row})
	}

	// Who follows whom: edges[a][b] means a follows b.
	edges := map[string]map[string]bool{}
	follow := func(a, b string) {
		if a == b || a == snLurker || b == snLurker {
			return
		}
		if edges[a] == nil {
			edges[a] = map[string]bool{}
		}
		edges[a][b] = true
	}
	var others []string
	for _, u := range users {
		if u != snCeleb && u != snLurker {
			others = append(others, u)
		}
	}
	for _, u := range []string{"23456", "34567", "45678"} {
		follow(u, snCeleb)
	}
	for _, u := range sample(r, others, len(others)) {
		if len(followersOf(edges, snCeleb)) == snCelebFans {
			break
		}
		follow(u, snCeleb)
	}
	for _, u := range []string{"56789", "67890", "78912", "78901"} {
		follow(snCeleb, u)
	}
	for _, u := range others {
		for range r.IntN(3) {
			follow(u, pick(r, others))
		}
	}
	must(len(followersOf(edges, snCeleb)) == snCelebFans, "celebrity has %d followers", len(followersOf(edges, snCeleb)))

	// Posts: the sample's five (p#12345 and p#23456 by hyuklee, and the
	// three of hyuklee's timeline), then drawn ones.
	posts := []snPost{{"12345", snCeleb, 1571827560}, {"23456", snCeleb, 1571827561},
		{"34567", "56789", 1571820000}, {"45678", "67890", 1571810000}, {"56789", "78901", 1571800000}}
	postIDs := map[string]bool{}
	stamps := map[int]bool{}
	for _, p := range posts {
		postIDs[p.id], stamps[p.ts] = true, true
	}
	var authors []string
	for _, u := range others {
		if r.IntN(4) > 0 {
			authors = append(authors, u)
		}
	}
	authors = append(authors, snCeleb, snCeleb, snCeleb)
	for len(posts) < snPosts {
		id := fmt.Sprintf("%05d", 10000+r.IntN(90000))
		ts := 1565000000 + r.IntN(90*24*3600)
		if postIDs[id] || stamps[ts] {
			continue
		}
		postIDs[id], stamps[ts] = true, true
		posts = append(posts, snPost{id, pick(r, authors), ts})
	}

	counts := map[string][3]int{} // followers, following, posts
	for a, bs := range edges {
		for b := range bs {
			c := counts[a]
			c[1]++
			counts[a] = c
			c = counts[b]
			c[0]++
			counts[b] = c
		}
	}
	for _, p := range posts {
		c := counts[p.author]
		c[2]++
		counts[p.author] = c
	}
	for _, u := range users {
		c := counts[u]
		out = append(out, line{"user_counts", map[string]any{"user_id": u, "follower#": c[0], "following#": c[1], "post#": c[2]}})
	}
	for _, u := range users {
		for _, f := range followersOf(edges, u) {
			out = append(out, line{"followers", map[string]any{"user_id": u, "follower_id": f}})
		}
	}
	for _, u := range users {
		var bs []string
		for b := range edges[u] {
			bs = append(bs, b)
		}
		sort.Strings(bs)
		for _, b := range bs {
			out = append(out, line{"following", map[string]any{"user_id": u, "following_id": b}})
		}
	}

	sort.Slice(posts, func(i, j int) bool {
		if posts[i].author != posts[j].author {
			return posts[i].author < posts[j].author
		}
		return posts[i].id < posts[j].id
	})
	likes := map[string][]string{}
	for _, p := range posts {
		row := map[string]any{"user_id": p.author, "post_id": p.id, "content": pick(r, snTexts), "timestamp": p.ts}
		if r.IntN(3) > 0 {
			row["imageUrl"] = "s3://sns-post-images/" + p.id + ".jpg"
		}
		out = append(out, line{"posts", row})
		n := []int{0, 0, 1, 2, 3, 4, 6}[r.IntN(7)]
		if p.id == "12345" {
			likes[p.id] = []string{"23456", "34567", "45678"}
			continue
		}
		likes[p.id] = sample(r, others, n)
		sort.Strings(likes[p.id])
	}
	for _, p := range posts {
		for _, u := range likes[p.id] {
			out = append(out, line{"likes", map[string]any{"post_id": p.id, "user_id": u}})
		}
	}
	for _, p := range posts {
		out = append(out, line{"like_counts", map[string]any{"post_id": p.id, "like#": len(likes[p.id])}})
	}

	// Timelines: the latest posts of the users one follows.
	readers := []string{snCeleb}
	for _, u := range sample(r, others, len(others)) {
		if len(readers) < snTimelines && len(edges[u]) > 0 {
			readers = append(readers, u)
		}
	}
	sort.Strings(readers)
	for _, u := range readers {
		var feed []snPost
		for _, p := range posts {
			if edges[u][p.author] {
				feed = append(feed, p)
			}
		}
		sort.Slice(feed, func(i, j int) bool { return feed[i].ts > feed[j].ts })
		if len(feed) > snTimeline {
			feed = feed[:snTimeline]
		}
		for _, p := range feed {
			out = append(out, line{"timeline", map[string]any{"user_id": u, "post_id": p.id, "author_id": p.author,
				"ttl": p.ts + snTTL}})
		}
	}
	return out
}

func followersOf(edges map[string]map[string]bool, b string) []string {
	var fs []string
	for a, bs := range edges {
		if bs[b] {
			fs = append(fs, a)
		}
	}
	sort.Strings(fs)
	return fs
}
