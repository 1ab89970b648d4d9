package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"
)

// The battle royale facts tests rely on; README.md lists them.
const (
	brUsers     = 200
	brVeteran   = "carrpatrick" // in 31 games: every started or finished one (28) and 3 open ones
	brNewbie    = "quietquinn"  // in no game
	brJoiner    = "vlopez"      // not yet in brAlmostFull
	brCreator   = "gstanley"    // created brAlmostFull
	brCap       = 50            // a game's people limit
	brAlmostFul = "c6f38a6a-d1c5-4bdf-8468-24692ccc4646"
	brSmallOpen = "3d4285f0-e52b-401a-a59b-112b38c4a26b"
	brFinished  = "25cec5bf-e498-483e-9a00-a5f93b9ea7c7"
	brStarted   = "c9c3917e-30f3-4ba4-82c4-2e9a0e4d1cfd"
)

var brMaps = []string{"Green Grasslands", "Dirty Desert", "Juicy Jungle", "Urban Underground", "Open Ocean"}

// Named users: the tutorial's (its scripts use them) and the edge cases.
var brNamed = []struct{ username, name string }{
	{brVeteran, "Patrick Carr"},
	{brCreator, "Gina Stanley"},
	{brJoiner, "Valeria López"},
	{"pboyd", "Pamela Boyd"},
	{"reidspencer", "Spencer Reid"},
	{"phendrix", "Paul Hendrix"},
	{"victoriapatrick", "Victoria Patrick"},
	{brNewbie, "Quinn Quiet"},
	{"zoë", "Zoë Nakamura"},
	{"sigga88", "Sigríður Jónsdóttir"},
	{"djordje", "Đorđe Petrović"},
	{"reneecote", "Renée Côté"},
}

var brFirst = []string{"Adam", "Brenda", "Carlos", "Dana", "Evan", "Fiona", "Gavin", "Holly", "Ian", "Jenna", "Kyle",
	"Laura", "Marcus", "Nina", "Oscar", "Paula", "Rita", "Sean", "Tara", "Victor", "Wendy", "Yusuf"}

var brLast = []string{"Adams", "Baker", "Cruz", "Dunn", "Ellis", "Fox", "Gray", "Hayes", "Irwin", "Jones", "Kemp",
	"Lloyd", "Moss", "Nash", "Owens", "Price", "Quinn", "Reyes", "Shaw", "Tate", "Vance", "Wolfe"}

var brStreets = []string{"Johnson Alley", "West Forge", "Tamara Square", "White Skyway", "Williams Branch", "Jasmine Motorway"}
var brCities = []string{"Phillipsberg, AR", "West Brenda, HI", "East Brendanport, MA", "East Susantown, MA", "Port Wendybury, VA"}

type brGame struct {
	id, mapName, creator string
	created              time.Time
	state                string // open, started, finished
	people               int
	players              []string
	medals               [3]string // gold, silver, bronze when finished
}

func battleRoyale() []line {
	r := rand.New(rand.NewPCG(2024, 3))

	// Users.
	var usernames []string
	names := map[string]string{}
	for _, u := range brNamed {
		usernames = append(usernames, u.username)
		names[u.username] = u.name
	}
	for len(usernames) < brUsers {
		first, last := pick(r, brFirst), pick(r, brLast)
		var u string
		switch r.IntN(3) {
		case 0:
			u = strings.ToLower(first[:1] + last)
		case 1:
			u = strings.ToLower(last + first)
		default:
			u = fmt.Sprintf("%s%02d", strings.ToLower(first), r.IntN(100))
		}
		if _, dup := names[u]; dup {
			continue
		}
		usernames = append(usernames, u)
		names[u] = first + " " + last
	}
	sort.Strings(usernames)
	var out []line
	for _, u := range usernames {
		row := map[string]any{"username": u, "name": names[u]}
		if r.IntN(100) >= 8 {
			row["email"] = strings.ReplaceAll(u, "ë", "e") + "@example.com"
		}
		if r.IntN(100) >= 10 {
			row["birthdate"] = fmt.Sprintf("%d-%02d-%02d", 1950+r.IntN(58), 1+r.IntN(12), 1+r.IntN(28))
		}
		if r.IntN(100) >= 5 {
			// Suite numbers carry a '#', and, as in the tutorial's
			// sample data, the address spans two lines.
			row["address"] = fmt.Sprintf("%d %s Suite #%d\n%s %05d",
				100+r.IntN(9900), pick(r, brStreets), 1+r.IntN(999), pick(r, brCities), r.IntN(100000))
		}
		out = append(out, line{"users", row})
	}

	// Games: three from the tutorial, the others drawn.
	base := time.Date(2019, 4, 10, 0, 0, 0, 0, time.UTC)
	games := []*brGame{
		{id: brAlmostFul, mapName: "Urban Underground", creator: brCreator, state: "open", people: brCap - 1,
			created: time.Date(2019, 4, 16, 10, 12, 54, 0, time.UTC)},
		{id: brSmallOpen, mapName: "Green Grasslands", creator: "victoriapatrick", state: "open", people: 17,
			created: time.Date(2019, 4, 15, 5, 34, 34, 0, time.UTC)},
		{id: brFinished, mapName: "Green Grasslands", creator: "phendrix", state: "finished", people: brCap,
			created: time.Date(2019, 4, 14, 3, 32, 57, 0, time.UTC), medals: [3]string{"pboyd", brVeteran, "reidspencer"}},
		{id: brStarted, mapName: "Dirty Desert", creator: brCreator, state: "started", people: brCap,
			created: time.Date(2019, 4, 13, 14, 25, 57, 0, time.UTC)},
	}
	// No open game is on Open Ocean: its OpenGamesIndex partition is empty.
	openMaps := brMaps[:4]
	for i, people := range []int{1, 34, 21, 46, 12, 5, 28, 40, 8, 3} {
		games = append(games, &brGame{mapName: openMaps[i%4], state: "open", people: people})
	}
	for i := range 26 {
		state := "started"
		if i >= 13 {
			state = "finished"
		}
		games = append(games, &brGame{mapName: brMaps[r.IntN(len(brMaps))], state: state, people: brCap})
	}
	seen := map[time.Time]bool{}
	for _, g := range games {
		if g.id == "" {
			g.id = uuid(r)
			for {
				g.created = base.Add(time.Duration(r.IntN(6*24*3600)) * time.Second)
				if !seen[g.created] {
					break
				}
			}
		}
		seen[g.created] = true
	}

	// Players. Everyone but the newbie may play; the veteran plays every
	// started or finished game and three open ones.
	var pool []string
	for _, u := range usernames {
		if u != brNewbie {
			pool = append(pool, u)
		}
	}
	veteranOpen := 0
	for _, g := range games {
		in := map[string]bool{}
		add := func(u string) {
			if !in[u] && len(g.players) < g.people {
				in[u] = true
				g.players = append(g.players, u)
			}
		}
		for g.creator == "" || g.creator == brVeteran {
			g.creator = pick(r, pool)
		}
		add(g.creator)
		for _, m := range g.medals {
			if m != "" {
				add(m)
			}
		}
		if g.state != "open" || (g.id != brAlmostFul && g.people > 1 && veteranOpen < 3) {
			if g.state == "open" {
				veteranOpen++
			}
			add(brVeteran)
		}
		for len(g.players) < g.people {
			u := pick(r, pool)
			if u == brVeteran || g.id == brAlmostFul && u == brJoiner {
				continue
			}
			add(u)
		}
		if g.state == "finished" && g.medals[0] == "" {
			m := sample(r, g.players, 3)
			g.medals = [3]string{m[0], m[1], m[2]}
		}
		sort.Strings(g.players)
	}
	sort.Slice(games, func(i, j int) bool { return games[i].created.Before(games[j].created) })

	var maps []line
	for _, g := range games {
		row := map[string]any{
			"game_id":     g.id,
			"map":         g.mapName,
			"create_time": isoSec(g.created),
			"people":      len(g.players),
			"creator":     g.creator,
		}
		must(len(g.players) == g.people, "game %s: %d players, want %d", g.id, len(g.players), g.people)
		start := g.created.Add(time.Duration(8*60+r.IntN(7*60)) * time.Second)
		switch g.state {
		case "open":
			row["open_timestamp"] = isoSec(g.created)
		case "started":
			row["start_time"] = isoSec(start)
		case "finished":
			row["start_time"] = isoSec(start)
			row["end_time"] = isoSec(start.Add(time.Duration(15*60+r.IntN(15*60)) * time.Second))
			row["gold"], row["silver"], row["bronze"] = g.medals[0], g.medals[1], g.medals[2]
		}
		out = append(out, line{"games", row})
		for _, u := range g.players {
			m := map[string]any{"game_id": g.id, "username": u}
			if g.state == "finished" {
				if k := slices.Index(g.medals[:], u); k >= 0 {
					m["place"] = []string{"gold", "silver", "bronze"}[k]
				}
			}
			maps = append(maps, line{"game_players", m})
		}
	}
	out = append(out, maps...)
	must(veteranOpen == 3, "veteran in %d open games", veteranOpen)
	return out
}
