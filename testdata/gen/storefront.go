package main

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// The storefront facts tests rely on; README.md lists them.
const (
	sfCustomers = 60
	sfBusy      = "c07" // 40 orders, 2023-07 to 2025-06, three of them with ids holding separators
	sfBusyCount = 40
	sfNoOrders  = "c13" // no order, no post
	sfOneOrder  = "c21" // exactly one order
	sfPosts     = 80
)

var (
	sfCities = []string{"Oslo", "Lima", "Kyiv", "Pune", "Quito", "São Paulo"}
	sfNames  = []string{"Ann Lee", "Mara Lind", "Zoë Kraus", "José Núñez", "Łukasz Wójcik", "Søren Ågren",
		"Omar Novak", "Rosa Quint", "Chloé Dubois", "Kenji Sato", "Ada Byron", "Tomás Ruiz"}
	sfStatuses = []string{"open", "paid", "paid", "shipped", "shipped", "shipped", "cancelled"}
	sfNotes    = []string{"gift wrap", "leave at door #2", "call first", "ring twice", "fragile: glass"}
	sfTitles   = []string{"Unboxing", "Review: kettle #3", "Why I returned it", "Best buy of the year",
		"Ça marche", "Tips & tricks", "Q&A", "Sizes run small"}
	// Order ids of sfBusy that hold the separator, the literal after the
	// id, or a whole key of the template: each must read back as itself.
	sfOddIDs = []string{"o#1", "x#ITEM", "ORDER#9#ITEM"}
)

func storefront() []line {
	r := rand.New(rand.NewPCG(2025, 16))
	var out []line
	ids := make([]string, sfCustomers)
	for i := range ids {
		ids[i] = fmt.Sprintf("c%02d", i+1)
		since := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(1500))
		out = append(out, line{"customers", map[string]any{"id": ids[i],
			"name": sfNames[i%len(sfNames)], "city": pick(r, sfCities), "since": since.Format("2006-01-02")}})
	}
	n := 0
	order := func(customer, id string, day time.Time) {
		n++
		if id == "" {
			id = fmt.Sprintf("o%04d", n)
		}
		row := map[string]any{"customer": customer, "date": day.Format("2006-01-02"), "id": id,
			"status": pick(r, sfStatuses), "total": money(500 + r.IntN(90000))}
		if r.IntN(3) == 0 {
			row["note"] = pick(r, sfNotes)
		}
		out = append(out, line{"orders", row})
	}
	// The busy customer: 40 orders over two years, two a day.
	for i := range sfBusyCount {
		id := ""
		if i < len(sfOddIDs) {
			id = sfOddIDs[i]
		}
		order(sfBusy, id, time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i/2*36))
	}
	order(sfOneOrder, "", time.Date(2024, 5, 17, 0, 0, 0, 0, time.UTC))
	for _, c := range ids {
		if c == sfBusy || c == sfNoOrders || c == sfOneOrder {
			continue
		}
		day := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(400))
		for range r.IntN(9) {
			day = day.AddDate(0, 0, 1+r.IntN(90))
			order(c, "", day)
		}
	}
	// Posts: ids of one to four digits, so that their keys do not sort
	// as their numbers do.
	authors := 0
	for i := range sfPosts {
		id := i + 1
		if i%10 == 9 {
			id = (i + 1) * 100
		}
		author := ids[r.IntN(len(ids))]
		if author == sfNoOrders {
			author = sfBusy
		}
		if author == sfBusy {
			authors++
		}
		day := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(1000))
		out = append(out, line{"posts", map[string]any{"id": id, "author": author,
			"date": day.Format("2006-01-02"), "title": pick(r, sfTitles), "likes": r.IntN(50)}})
	}
	must(authors > 0, "storefront: %s wrote no post", sfBusy)
	count := map[string]int{}
	for _, l := range out {
		if l.Entity == "orders" {
			count[l.Row["customer"].(string)]++
		}
	}
	must(count[sfBusy] == sfBusyCount && count[sfNoOrders] == 0 && count[sfOneOrder] == 1,
		"storefront: order counts %d, %d, %d", count[sfBusy], count[sfNoOrders], count[sfOneOrder])
	return out
}
