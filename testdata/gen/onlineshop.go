package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// The online shop facts tests rely on; README.md lists them.
const (
	osCustomers   = 40
	osProducts    = 60
	osOrders      = 200
	osLoyal       = "12345" // Samaneh: 24 months of orders, 3 a month, order 12345 among them
	osLoyalMonths = 24
	osLoyalPerMon = 3
	osNoOrders    = "54321" // Henrik: no order
	osBook        = "99887" // "The Book": in more than 100 orders
	osBookOrders  = 110
	osEmptyWH     = "99999" // Kiruna: no inventory, no shipment
	osRefunds     = 6       // invoices with a negative Refund payment
)

type osAddr struct{ country, county, city, street, number, zip string }

func (a osAddr) m() map[string]any {
	return map[string]any{"Country": a.country, "County": a.county, "City": a.city, "Street": a.street,
		"Number": a.number, "ZipCode": a.zip}
}

var osWarehouses = []struct {
	id   string
	addr osAddr
}{
	{"12345", osAddr{"Sweden", "Vastra Gotaland", "Goteborg", "MainStreet", "20", "41111"}},
	{"12376", osAddr{"Sweden", "Vastra Gotaland", "Boras", "RiverStreet", "20", "11111"}},
	{"23001", osAddr{"Sweden", "Skåne", "Malmö", "Hamngatan", "7", "21122"}},
	{"23002", osAddr{"Sweden", "Stockholm", "Stockholm", "Sveavägen", "44", "11134"}},
	{"23003", osAddr{"Sweden", "Uppsala", "Uppsala", "Kungsgatan", "3B", "75321"}},
	{osEmptyWH, osAddr{"Sweden", "Norrbotten", "Kiruna", "Malmvägen", "1", "98131"}},
}

var osNamed = []struct{ id, name, email string }{
	{"12345", "Samaneh", "samaneh@example.com"},
	{"23456", "Kathleen", "kathleen@example.com"},
	{"54321", "Henrik", "henrik@example.com"},
	{"31415", "Åsa Öberg", "asa.oberg@example.com"},
	{"27182", "Jörgen Ström", "jorgen#orders@example.com"}, // a '#' outside any key
	{"16180", "Zoë Lind", ""},
}

var osFirst = []string{"Anna", "Erik", "Maja", "Lars", "Elin", "Oskar", "Sara", "Nils", "Ida", "Karl", "Lina", "Hugo"}
var osLast = []string{"Andersson", "Berg", "Carlsson", "Dahl", "Ek", "Falk", "Holm", "Lund", "Nyberg", "Sandberg"}

var osKinds = []struct{ kind, desc string }{
	{"Vinyl", "A record on 180 g vinyl"},
	{"Book", "Hardcover, first edition"},
	{"Poster", "50 x 70 cm print"},
	{"Headphones", "Over-ear, closed back"},
	{"Mug", "Stoneware, 350 ml"},
}

var osTitles = []string{"Northern Lights", "Smörgåsbord", "Symphony #5", "Café Lounge", "Midsommar", "Fika Time",
	"Archipelago", "Dalahäst", "Blue Hour", "Lagom"}

var osStreets = []string{"Slanbarsvagen", "Storgatan", "Drottninggatan", "Ringvägen", "Skolgatan"}

func onlineShop() []line {
	r := rand.New(rand.NewPCG(2024, 5))
	var out []line

	ids := map[string]map[string]bool{}
	fresh := func(space string) string {
		if ids[space] == nil {
			ids[space] = map[string]bool{}
		}
		for {
			id := fmt.Sprintf("%05d", 10000+r.IntN(90000))
			if !ids[space][id] {
				ids[space][id] = true
				return id
			}
		}
	}
	reserve := func(space string, list ...string) {
		if ids[space] == nil {
			ids[space] = map[string]bool{}
		}
		for _, id := range list {
			ids[space][id] = true
		}
	}
	reserve("c", "12345", "23456", "54321", "31415", "27182", "16180")
	reserve("p", "12345", osBook)
	reserve("w", "12345", "12376", "23001", "23002", "23003", osEmptyWH)
	reserve("o", "12345")
	reserve("i", "55443")
	reserve("pmn", "33442", "33224")
	reserve("sh", "88899", "98765")
	reserve("shp", "55555", "12345", "54321")

	// Customers.
	var customers []string
	for _, c := range osNamed {
		row := map[string]any{"customer_id": c.id, "Name": c.name}
		if c.email != "" {
			row["Email"] = c.email
		}
		out = append(out, line{"customers", row})
		customers = append(customers, c.id)
	}
	for len(customers) < osCustomers {
		id := fresh("c")
		first, last := pick(r, osFirst), pick(r, osLast)
		row := map[string]any{"customer_id": id, "Name": first + " " + last}
		if r.IntN(10) > 0 {
			row["Email"] = fmt.Sprintf("%s.%s%d@example.com", strings.ToLower(first), strings.ToLower(last), r.IntN(100))
		}
		out = append(out, line{"customers", row})
		customers = append(customers, id)
	}

	// Products; two have no price (not for sale, never ordered).
	price := map[string]int{"12345": 10000, osBook: 4000}
	products := []string{"12345", osBook}
	out = append(out,
		line{"products", map[string]any{"product_id": "12345", "Price": money(10000),
			"Detail": map[string]any{"Name": "Options Open", "Description": "The latest album"}}},
		line{"products", map[string]any{"product_id": osBook, "Price": money(4000),
			"Detail": map[string]any{"Name": "The Book", "Description": "The best book ever"}}})
	for len(products) < osProducts {
		id := fresh("p")
		k := pick(r, osKinds)
		detail := map[string]any{"Name": pick(r, osTitles) + " " + k.kind}
		if r.IntN(5) > 0 {
			detail["Description"] = k.desc
		}
		row := map[string]any{"product_id": id, "Detail": detail}
		if len(products) >= 4 {
			price[id] = 199 + r.IntN(40000)
			row["Price"] = money(price[id])
		}
		out = append(out, line{"products", row})
		products = append(products, id)
	}
	var forSale []string
	for _, p := range products {
		if _, ok := price[p]; ok && p != osBook {
			forSale = append(forSale, p)
		}
	}

	// Warehouses and their inventory (Kiruna holds nothing).
	for _, w := range osWarehouses {
		out = append(out, line{"warehouses", map[string]any{"warehouse_id": w.id, "Address": w.addr.m()}})
	}
	out = append(out,
		line{"warehouse_items", map[string]any{"product_id": "12345", "warehouse_id": "12345", "Quantity": 50}},
		line{"warehouse_items", map[string]any{"product_id": osBook, "warehouse_id": "12345", "Quantity": 4}},
		line{"warehouse_items", map[string]any{"product_id": osBook, "warehouse_id": "12376", "Quantity": 4}})
	for _, p := range products[2:] {
		for _, w := range sample(r, osWarehouses[:5], 1+r.IntN(3)) {
			q := r.IntN(200)
			if r.IntN(8) == 0 {
				q = 0
			}
			out = append(out, line{"warehouse_items", map[string]any{"product_id": p, "warehouse_id": w.id, "Quantity": q}})
		}
	}

	// Orders: who and when. The loyal customer orders three times a month
	// for two years; Henrik never orders.
	type order struct {
		id, customer string
		at           time.Time
	}
	var orders []order
	for m := range osLoyalMonths {
		for k := range osLoyalPerMon {
			at := time.Date(2019, time.Month(7+m), 1+k*9+r.IntN(9), 8+r.IntN(14), r.IntN(60), 0, 0, time.UTC)
			id := fresh("o")
			if at.Year() == 2020 && at.Month() == 6 && k == 2 {
				id, at = "12345", time.Date(2020, 6, 21, 19, 18, 0, 0, time.UTC)
			}
			orders = append(orders, order{id, osLoyal, at})
		}
	}
	var others []string
	for _, c := range customers {
		if c != osLoyal && c != osNoOrders {
			others = append(others, c)
		}
	}
	for len(orders) < osOrders {
		c := pick(r, others)
		at := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(730*24*60)) * time.Minute)
		if len(orders) == osLoyalMonths*osLoyalPerMon {
			at = time.Date(2020, 6, 21, 8, 5, 0, 0, time.UTC) // another order of The Book that day
		}
		orders = append(orders, order{fresh("o"), c, at})
	}
	sort.Slice(orders, func(i, j int) bool { return orders[i].at.Before(orders[j].at) })

	// Which orders hold The Book: the sample's order, the other one of
	// 2020-06-21, and others drawn until there are osBookOrders.
	book := map[string]bool{"12345": true}
	for _, o := range orders {
		if o.at.Equal(time.Date(2020, 6, 21, 8, 5, 0, 0, time.UTC)) {
			book[o.id] = true
		}
	}
	for _, i := range r.Perm(len(orders)) {
		if len(book) == osBookOrders {
			break
		}
		book[orders[i].id] = true
	}

	var lines []line
	refunds := 0
	for _, o := range orders {
		if o.id == "12345" {
			lines = append(lines, osSampleOrder()...)
			continue
		}
		type item struct {
			product string
			qty     int
			at      time.Time
		}
		n := 1 + r.IntN(4)
		var items []item
		var ps []string
		if book[o.id] {
			ps = append(ps, osBook)
		}
		ps = append(ps, sample(r, forSale, n-len(ps))...)
		amount := 0
		for k, p := range ps {
			it := item{p, 1 + r.IntN(5), o.at.Add(time.Duration(2*k) * time.Minute)}
			items = append(items, it)
			amount += it.qty * price[p]
			lines = append(lines, line{"order_items", map[string]any{
				"order_id": o.id, "product_id": p, "order_date": isoSec(it.at), "customer_id": o.customer,
				"Quantity": it.qty, "Price": money(price[p])}})
		}
		inv := fresh("i")
		lines = append(lines, line{"invoices", map[string]any{
			"order_id": o.id, "invoice_id": inv, "customer_id": o.customer, "invoice_date": isoSec(o.at),
			"Amount": money(amount)}})
		paid := isoSec(o.at.Add(time.Duration(30+r.IntN(60)) * time.Minute))
		pay := func(typ string, cents int) {
			lines = append(lines, line{"payments", map[string]any{
				"order_id": o.id, "payment_id": fresh("pmn"), "invoice_id": inv, "Type": typ,
				"Amount": money(cents), "Date": paid}})
		}
		card := pick(r, []string{"MasterCard", "Visa", "Amex"})
		if r.IntN(3) == 0 && amount > 5000 {
			part := 1000 * (1 + r.IntN(amount/2000))
			pay(pick(r, []string{"GiftCard", "DiscountCode"}), part)
			pay(card, amount-part)
		} else {
			pay(card, amount)
		}
		if refunds < osRefunds && r.IntN(20) == 0 {
			refunds++
			pay("Refund", -items[0].qty*price[items[0].product])
		}
		// Shipments: none yet for some orders, one or two for the others;
		// every item ships whole in one of them.
		ns := []int{0, 1, 1, 1, 1, 1, 1, 2, 2, 1}[r.IntN(10)]
		var ships []string
		for range ns {
			sh := fresh("sh")
			ships = append(ships, sh)
			a := osAddr{"Sweden", "Vastra Gotaland", "Goteborg", pick(r, osStreets), fmt.Sprint(1 + r.IntN(200)),
				fmt.Sprintf("%05d", 10000+r.IntN(90000))}
			lines = append(lines, line{"shipments", map[string]any{
				"order_id": o.id, "shipment_id": sh, "warehouse_id": osWarehouses[r.IntN(5)].id,
				"Address": a.m(), "Type": pick(r, []string{"Express", "Standard", "Standard"}),
				"Date": isoSec(o.at.Add(time.Duration(20+r.IntN(60)) * time.Hour))}})
		}
		for _, it := range items {
			if len(ships) == 0 {
				break
			}
			lines = append(lines, line{"shipment_items", map[string]any{
				"order_id": o.id, "shipment_item_id": fresh("shp"), "shipment_id": pick(r, ships),
				"product_id": it.product, "Quantity": it.qty}})
		}
	}
	must(refunds == osRefunds, "%d refunds", refunds)
	// Grouped by entity, as a reader of the file expects.
	for _, e := range []string{"order_items", "invoices", "payments", "shipments", "shipment_items"} {
		for _, l := range lines {
			if l.Entity == e {
				out = append(out, l)
			}
		}
	}
	return out
}

// osSampleOrder is order 12345 of AnOnlineShop_facets.json, as it is
// there but for numbers, typed N here (the model types them S).
func osSampleOrder() []line {
	gbg := func(number, zip string) map[string]any {
		return osAddr{"Sweden", "Vastra Gotaland", "Goteborg", "Slanbarsvagen", number, zip}.m()
	}
	return []line{
		{"order_items", map[string]any{"order_id": "12345", "product_id": "12345", "order_date": "2020-06-21T19:18:00",
			"customer_id": "12345", "Quantity": 2, "Price": money(10000)}},
		{"order_items", map[string]any{"order_id": "12345", "product_id": osBook, "order_date": "2020-06-21T19:20:00",
			"customer_id": "12345", "Quantity": 5, "Price": money(4000)}},
		{"invoices", map[string]any{"order_id": "12345", "invoice_id": "55443", "customer_id": "12345",
			"invoice_date": "2020-06-21T19:18:00", "Amount": money(40000)}},
		{"payments", map[string]any{"order_id": "12345", "payment_id": "33442", "invoice_id": "55443",
			"Type": "GiftCard", "Amount": money(10000), "Date": "2020-06-21T20:30:00"}},
		{"payments", map[string]any{"order_id": "12345", "payment_id": "33224", "invoice_id": "55443",
			"Type": "MasterCard", "Amount": money(30000), "Date": "2020-06-21T20:30:00"}},
		{"shipments", map[string]any{"order_id": "12345", "shipment_id": "88899", "warehouse_id": "12376",
			"Address": gbg("111", "98765"), "Type": "Express", "Date": "2020-06-22T08:20:00"}},
		{"shipments", map[string]any{"order_id": "12345", "shipment_id": "98765", "warehouse_id": "12345",
			"Address": gbg("111", "98765"), "Type": "Express", "Date": "2020-06-22T10:20:00"}},
		{"shipment_items", map[string]any{"order_id": "12345", "shipment_item_id": "55555", "shipment_id": "98765",
			"product_id": "12345", "Quantity": 2}},
		{"shipment_items", map[string]any{"order_id": "12345", "shipment_item_id": "12345", "shipment_id": "98765",
			"product_id": osBook, "Quantity": 3}},
		{"shipment_items", map[string]any{"order_id": "12345", "shipment_item_id": "54321", "shipment_id": "88899",
			"product_id": osBook, "Quantity": 2}},
	}
}
