package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// The ProductCatalog facts tests rely on; README.md lists them.
const (
	pcGenerated = 300 // products beyond the developer guide's own
	pcFirstID   = 1000
	pcBadPrice  = 103 // the book priced 2000 "intentionally", to be found by a Scan
)

// pcSample holds the developer guide's ProductCatalog items: the sample
// data (AppendixSampleDataCodeJava: books 101-103, bicycles 201-205), the
// bicycle of "Specifying item attributes when using expressions" (123;
// its QuantityOnHand is NULL, left out here), and the items the
// condition- and update-expression pages put (456 and 789).
var pcSample = []line{
	{"books", map[string]any{"Id": 101, "Title": "Book 101 Title", "ISBN": "111-1111111111", "Authors": []string{"Author1"},
		"Price": 2, "Dimensions": "8.5 x 11.0 x 0.5", "PageCount": 500, "InPublication": true}},
	{"books", map[string]any{"Id": 102, "Title": "Book 102 Title", "ISBN": "222-2222222222", "Authors": []string{"Author1", "Author2"},
		"Price": 20, "Dimensions": "8.5 x 11.0 x 0.8", "PageCount": 600, "InPublication": true}},
	{"books", map[string]any{"Id": 103, "Title": "Book 103 Title", "ISBN": "333-3333333333", "Authors": []string{"Author1", "Author2"},
		"Price": 2000, "Dimensions": "8.5 x 11.0 x 1.5", "PageCount": 600, "InPublication": false}},
	{"bicycles", map[string]any{"Id": 123, "Title": "Bicycle 123", "Description": "123 description", "BicycleType": "Hybrid",
		"Brand": "Brand-Company C", "Price": 500, "Color": []string{"Black", "Red"}, "InStock": true,
		"RelatedItems": []int{341, 472, 649},
		"Pictures": map[string]any{"FrontView": "http://example.com/products/123_front.jpg",
			"RearView": "http://example.com/products/123_rear.jpg", "SideView": "http://example.com/products/123_left_side.jpg"},
		"ProductReviews": map[string]any{
			"FiveStar": []string{"Excellent! Can't recommend it highly enough! Buy it!", "Do yourself a favor and buy this."},
			"OneStar":  []string{"Terrible product! Do not buy this."}},
		"Comment": "This product sells out quickly during the summer", "Safety.Warning": "Always wear a helmet"}},
	{"bicycles", map[string]any{"Id": 201, "Title": "18-Bike-201", "Description": "201 Description", "BicycleType": "Road",
		"Brand": "Mountain A", "Price": 100, "Color": []string{"Black", "Red"}}},
	{"bicycles", map[string]any{"Id": 202, "Title": "21-Bike-202", "Description": "202 Description", "BicycleType": "Road",
		"Brand": "Brand-Company A", "Price": 200, "Color": []string{"Black", "Green"}}},
	{"bicycles", map[string]any{"Id": 203, "Title": "19-Bike-203", "Description": "203 Description", "BicycleType": "Road",
		"Brand": "Brand-Company B", "Price": 300, "Color": []string{"Black", "Green", "Red"}}},
	{"bicycles", map[string]any{"Id": 204, "Title": "18-Bike-204", "Description": "204 Description", "BicycleType": "Mountain",
		"Brand": "Brand-Company B", "Price": 400, "Color": []string{"Red"}}},
	{"bicycles", map[string]any{"Id": 205, "Title": "20-Bike-205", "Description": "205 Description", "BicycleType": "Hybrid",
		"Brand": "Brand-Company C", "Price": 500, "Color": []string{"Black", "Red"}}},
	{"sporting_goods", map[string]any{"Id": 456, "Price": 650}},
	{"home_improvement", map[string]any{"Id": 789, "Price": 52, "InStock": true, "Brand": "Acme"}},
}

var pcBookTitles = []string{"C# in Depth", "Les Misérables", "Der Zauberberg", "Cien años de soledad", "The Pragmatic Programmer",
	"Ensaio sobre a Cegueira", "Przedwiośnie", "Noruwei no Mori", "Designing Data-Intensive Applications", "Fröken Julie"}
var pcAuthors = []string{"Jon Skeet", "Victor Hugo", "Thomas Mann", "Gabriel García Márquez", "Andrew Hunt", "David Thomas",
	"José Saramago", "Stefan Żeromski", "Haruki Murakami", "Martin Kleppmann", "August Strindberg"}
var pcBrands = []string{"Brand-Company A", "Brand-Company B", "Brand-Company C", "Mountain A", "Cykelfabrikken Ø"}
var pcColors = []string{"Black", "Blue", "Green", "Red", "White", "Yellow"}
var pcBikeTypes = []string{"Road", "Mountain", "Hybrid", "Gravel"}
var pcGoods = []string{"Tennis Racket", "Yoga Mat", "Football #5", "Ski Poles", "Climbing Rope 60 m"}

func productCatalog() []line {
	r := rand.New(rand.NewPCG(2024, 8))
	out := append([]line(nil), pcSample...)
	for i := range pcGenerated {
		id := pcFirstID + i
		row := map[string]any{"Id": id}
		var entity string
		switch k := r.IntN(20); {
		case k < 10:
			entity = "books"
			row["Title"] = pick(r, pcBookTitles)
			row["ISBN"] = fmt.Sprintf("%03d-%010d", 100+r.IntN(900), r.IntN(10000000000))
			authors := sample(r, pcAuthors, 1+r.IntN(2))
			sort.Strings(authors)
			row["Authors"] = authors
			row["Price"] = money(299 + r.IntN(9000))
			if r.IntN(5) > 0 {
				row["Dimensions"] = fmt.Sprintf("%d.%d x %d.%d x %d.%d", 5+r.IntN(4), r.IntN(10), 8+r.IntN(4), r.IntN(10), 0, 1+r.IntN(9))
			}
			row["PageCount"] = 80 + r.IntN(900)
			row["InPublication"] = r.IntN(4) > 0
		case k < 17:
			entity = "bicycles"
			typ := pick(r, pcBikeTypes)
			row["Title"] = fmt.Sprintf("%d-Bike-%d", 18+r.IntN(4), id)
			row["Description"] = fmt.Sprintf("%d Description", id)
			row["BicycleType"] = typ
			row["Brand"] = pick(r, pcBrands)
			row["Price"] = money(9900 + r.IntN(300000))
			if r.IntN(6) > 0 {
				colors := sample(r, pcColors, 1+r.IntN(3))
				sort.Strings(colors)
				row["Color"] = colors
			}
			row["InStock"] = r.IntN(3) > 0
			if r.IntN(4) == 0 {
				row["RelatedItems"] = []int{pcFirstID + r.IntN(pcGenerated), pcFirstID + r.IntN(pcGenerated)}
			}
			if typ == "Mountain" || r.IntN(8) == 0 {
				row["Safety.Warning"] = "Always wear a helmet"
			}
		default:
			entity = "sporting_goods"
			row["Title"] = pick(r, pcGoods)
			row["Price"] = money(499 + r.IntN(20000))
		}
		out = append(out, line{entity, row})
	}
	// Title in the few generated books that carry a '#': C# in Depth.
	n := 0
	for _, l := range out {
		if t, ok := l.Row["Title"].(string); ok && strings.Contains(t, "#") && l.Entity == "books" {
			n++
		}
	}
	must(n > 0, "no book title with a '#'")
	return out
}
