package main

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// The CustomerOrders facts tests rely on; README.md lists them.
const (
	coSteady       = "carol@example.com" // 24 months of orders, 3 a month
	coSteadyMonths = 24
	coSteadyPerMon = 3
	coBusy         = "dave@example.com" // 130 orders in 2024
	coBusyOrders   = 130
	coOthers       = 40 // customers besides alice, bob, carol and dave
)

// coSample is the data of the developer guide's example (Java document API
// and .NET low-level API versions alike): alice's 3 orders and bob's 7.
var coSample = []map[string]any{
	{"CustomerId": "alice@example.com", "OrderId": 1, "IsOpen": 1, "OrderCreationDate": 20150101,
		"ProductCategory": "Book", "ProductName": "The Great Outdoors", "OrderStatus": "PACKING ITEMS"},
	{"CustomerId": "alice@example.com", "OrderId": 2, "IsOpen": 1, "OrderCreationDate": 20150221,
		"ProductCategory": "Bike", "ProductName": "Super Mountain", "OrderStatus": "ORDER RECEIVED"},
	{"CustomerId": "alice@example.com", "OrderId": 3, "OrderCreationDate": 20150304,
		"ProductCategory": "Music", "ProductName": "A Quiet Interlude", "OrderStatus": "IN TRANSIT", "ShipmentTrackingId": "176493"},
	{"CustomerId": "bob@example.com", "OrderId": 1, "OrderCreationDate": 20150111,
		"ProductCategory": "Movie", "ProductName": "Calm Before The Storm", "OrderStatus": "SHIPPING DELAY", "ShipmentTrackingId": "859323"},
	{"CustomerId": "bob@example.com", "OrderId": 2, "OrderCreationDate": 20150124,
		"ProductCategory": "Music", "ProductName": "E-Z Listening", "OrderStatus": "DELIVERED", "ShipmentTrackingId": "756943"},
	{"CustomerId": "bob@example.com", "OrderId": 3, "OrderCreationDate": 20150221,
		"ProductCategory": "Music", "ProductName": "Symphony 9", "OrderStatus": "DELIVERED", "ShipmentTrackingId": "645193"},
	{"CustomerId": "bob@example.com", "OrderId": 4, "IsOpen": 1, "OrderCreationDate": 20150222,
		"ProductCategory": "Hardware", "ProductName": "Extra Heavy Hammer", "OrderStatus": "PACKING ITEMS"},
	{"CustomerId": "bob@example.com", "OrderId": 5, "OrderCreationDate": 20150309,
		"ProductCategory": "Book", "ProductName": "How To Cook", "OrderStatus": "IN TRANSIT", "ShipmentTrackingId": "440185"},
	{"CustomerId": "bob@example.com", "OrderId": 6, "OrderCreationDate": 20150318,
		"ProductCategory": "Luggage", "ProductName": "Really Big Suitcase", "OrderStatus": "DELIVERED", "ShipmentTrackingId": "893927"},
	{"CustomerId": "bob@example.com", "OrderId": 7, "OrderCreationDate": 20150324,
		"ProductCategory": "Golf", "ProductName": "PGA Pro II", "OrderStatus": "OUT FOR DELIVERY", "ShipmentTrackingId": "383283"},
}

var coProducts = []struct{ category, name string }{
	{"Book", "The Great Outdoors"}, {"Book", "How To Cook"}, {"Book", "Smörgåsbord för alla"},
	{"Bike", "Super Mountain"}, {"Bike", "Café Racer"}, {"Music", "Symphony 9"}, {"Music", "Nocturne Op. 9 #2"},
	{"Movie", "Calm Before The Storm"}, {"Hardware", "Extra Heavy Hammer"}, {"Hardware", "Size #10 Hex Bolts"},
	{"Luggage", "Really Big Suitcase"}, {"Golf", "PGA Pro II"}, {"Garden", "Rake & Hoe Set"},
}

// Closed orders far outnumber open ones: IsOpen, and so IsOpenIndex,
// holds a small fraction of the items.
var coStatuses = []struct {
	status string
	open   bool
}{
	{"DELIVERED", false}, {"DELIVERED", false}, {"DELIVERED", false}, {"DELIVERED", false}, {"DELIVERED", false},
	{"DELIVERED", false}, {"DELIVERED", false}, {"DELIVERED", false}, {"IN TRANSIT", false}, {"OUT FOR DELIVERY", false},
	{"SHIPPING DELAY", false}, {"CANCELLED", false},
}

func customerOrders() []line {
	r := rand.New(rand.NewPCG(2024, 7))
	var out []line
	for _, row := range coSample {
		out = append(out, line{"orders", row})
	}
	order := func(customer string, id int, day time.Time, open bool) {
		p := pick(r, coProducts)
		row := map[string]any{"CustomerId": customer, "OrderId": id,
			"OrderCreationDate": day.Year()*10000 + int(day.Month())*100 + day.Day(),
			"ProductCategory":   p.category, "ProductName": p.name}
		if open {
			row["IsOpen"] = 1
			row["OrderStatus"] = pick(r, []string{"PACKING ITEMS", "ORDER RECEIVED"})
		} else {
			s := pick(r, coStatuses)
			row["OrderStatus"] = s.status
			if s.status != "CANCELLED" {
				row["ShipmentTrackingId"] = fmt.Sprintf("%06d", r.IntN(1000000))
			}
		}
		out = append(out, line{"orders", row})
	}
	// carol: 3 orders a month from 2023-07 to 2025-06, OrderIds in date
	// order; the last two are still open.
	id := 0
	for m := range coSteadyMonths {
		for k := range coSteadyPerMon {
			id++
			day := time.Date(2023, time.Month(7+m), 3+k*9+r.IntN(6), 0, 0, 0, 0, time.UTC)
			order(coSteady, id, day, id > coSteadyMonths*coSteadyPerMon-2)
		}
	}
	// dave: 130 orders in 2024, a few open.
	for i := range coBusyOrders {
		day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*366/coBusyOrders)
		order(coBusy, i+1, day, i%40 == 39)
	}
	// Others: 1 to 8 orders each; a few open. One email address is not ASCII.
	names := []string{"jürgen", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj", "olivia",
		"peggy", "rupert", "sybil", "trent", "victor", "walter"}
	for i := range coOthers {
		c := fmt.Sprintf("%s%d@example.com", names[i%len(names)], i/len(names))
		if i == 0 {
			c = "jürgen@example.com"
		}
		n := 1 + r.IntN(8)
		day := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(900))
		for k := range n {
			day = day.AddDate(0, 0, 1+r.IntN(60))
			order(c, k+1, day, r.IntN(25) == 0)
		}
	}
	return out
}
