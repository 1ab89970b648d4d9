package draft_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynosql/dynosql/internal/draft"
	"github.com/dynosql/dynosql/mapping"
)

// item builds an item from name, value pairs: a string is S, an int or
// float N.
func item(kv ...any) draft.Item {
	it := draft.Item{}
	for i := 0; i < len(kv); i += 2 {
		switch v := kv[i+1].(type) {
		case string:
			it[kv[i].(string)] = &types.AttributeValueMemberS{Value: v}
		default:
			it[kv[i].(string)] = &types.AttributeValueMemberN{Value: fmt.Sprint(v)}
		}
	}
	return it
}

// table is a table keyed PK, SK (both S) with the given indexes.
func table(indexes ...draft.Index) draft.Table {
	t := draft.Table{Name: "Shop", PartitionKey: "PK", SortKey: "SK", KeyTypes: map[string]string{"PK": "S", "SK": "S"}, Indexes: indexes}
	for _, ix := range indexes {
		for _, a := range []string{ix.PartitionKey, ix.SortKey} {
			if a != "" && t.KeyTypes[a] == "" {
				t.KeyTypes[a] = "S"
			}
		}
	}
	return t
}

// summary writes a loaded mapping's entities one a line: name, type,
// key templates, columns with types, optional indexes.
func summary(m *mapping.Mapping) string {
	var lines []string
	for _, name := range m.EntityNames() {
		e := m.Entities[name]
		line := name
		if e.Type != "" {
			line += " type=" + e.Type
		}
		for _, attr := range e.KeyAttrs() {
			line += " " + attr + "=" + e.Key(attr).Raw
		}
		var cols []string
		for _, c := range slices.Sorted(maps.Keys(e.Columns)) {
			cols = append(cols, c+":"+e.Columns[c])
		}
		line += " | " + strings.Join(cols, " ")
		if len(e.Optional) > 0 {
			line += " | optional " + strings.Join(e.Optional, ",")
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// drafted drafts in, loads the draft and checks that it reads each item
// as the entity want names (item index → entity).
func drafted(t *testing.T, in draft.Input, want map[int]string) (*mapping.Mapping, string) {
	t.Helper()
	out, err := draft.Draft(in)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mapping.Parse("draft", out)
	if err != nil {
		t.Fatalf("the draft does not load: %v\n%s", err, out)
	}
	var all []*mapping.Entity
	for _, n := range m.EntityNames() {
		all = append(all, m.Entities[n])
	}
	for i, name := range want {
		got := "none"
		if e := m.Classify(in.Items[i], all); e != nil {
			got = e.Name
		}
		if got != name {
			t.Errorf("item %d is read as %s, want %s\n%s", i, got, name, out)
		}
	}
	return m, string(out)
}

func TestCompositeTemplatesAreSplitAtTheSeparatorAndNamedAfterTheirLabels(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "USER#u1", "SK", "PROFILE", "name", "Ann"),
		item("PK", "USER#u2", "SK", "PROFILE", "name", "Bo"),
		item("PK", "USER#u1", "SK", "ORDER#2024-05-01#o1", "total", 12),
		item("PK", "USER#u1", "SK", "ORDER#2024-05-03#o2", "total", 7),
		item("PK", "USER#u2", "SK", "ORDER#2024-06-10#o3", "total", 3.5, "note", "gift"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 1: "users", 2: "orders", 4: "orders"})
	want := "orders PK=USER#{user_id} SK=ORDER#{date}#{order_id} | date:S note:S order_id:S total:N user_id:S\n" +
		"users PK=USER#{user_id} SK=PROFILE | name:S user_id:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	for _, guess := range []string{"user_id: S  # named after USER", "date: S  # named after its values, which are dates", "note: S  # in 1 of 3 items"} {
		if !strings.Contains(out, guess) {
			t.Errorf("the draft does not say %q:\n%s", guess, out)
		}
	}
}

func TestANumberSortKeyAndASparseLocalIndex(t *testing.T) {
	in := draft.Input{
		Table: draft.Table{
			Name: "CustomerOrders", PartitionKey: "CustomerId", SortKey: "OrderId",
			KeyTypes: map[string]string{"CustomerId": "S", "OrderId": "N", "IsOpen": "N"},
			Indexes:  []draft.Index{{Name: "IsOpenIndex", PartitionKey: "CustomerId", SortKey: "IsOpen", Local: true, Projection: "KEYS_ONLY"}},
		},
		Items: []draft.Item{
			item("CustomerId", "alice@example.com", "OrderId", 1, "IsOpen", 1, "Status", "open"),
			item("CustomerId", "alice@example.com", "OrderId", 2, "Status", "shipped"),
			item("CustomerId", "bob@example.com", "OrderId", 1, "Status", "shipped"),
		},
	}
	m, _ := drafted(t, in, map[int]string{0: "customers", 1: "customers", 2: "customers"})
	want := "customers CustomerId={CustomerId} OrderId={OrderId} IsOpen={IsOpen} | CustomerId:S IsOpen:N OrderId:N Status:S | optional IsOpenIndex"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if ix := m.Indexes["IsOpenIndex"]; ix == nil || !ix.Local || ix.Projection != "KEYS_ONLY" {
		t.Errorf("IsOpenIndex is %+v, want a local index projecting KEYS_ONLY", ix)
	}
	if m.KeyType("OrderId") != mapping.KeyN {
		t.Errorf("OrderId is %s, want N", m.KeyType("OrderId"))
	}
}

func TestATypeAttributeTellsApartItemsWhoseKeysLookAlike(t *testing.T) {
	in := draft.Input{
		Table: draft.Table{Name: "Catalog", PartitionKey: "Id", KeyTypes: map[string]string{"Id": "N"}},
		Items: []draft.Item{
			item("Id", 101, "_et", "Book", "Title", "Dune"),
			item("Id", 102, "_et", "Book", "Title", "Emma", "Pages", 320),
			item("Id", 201, "_et", "Bicycle", "Brand", "Acme"),
			item("Id", 456, "_et", "Sporting Goods", "Price", 650),
		},
	}
	m, _ := drafted(t, in, map[int]string{0: "books", 1: "books", 2: "bicycles", 3: "sporting_goods"})
	want := "bicycles type=Bicycle Id={Id} | Brand:S Id:N\n" +
		"books type=Book Id={Id} | Id:N Pages:N Title:S\n" +
		"sporting_goods type=Sporting Goods Id={Id} | Id:N Price:N"
	if got := summary(m); got != want || m.TypeAttribute != "_et" {
		t.Errorf("drafted (type attribute %q)\n%s\nwant (_et)\n%s", m.TypeAttribute, got, want)
	}
}

// The complaint management design: the partition key is the bare
// complaint id, indexes are keyed by plain attributes, some sparse.
func TestABareColumnKeyAndIndexesOnPlainAttributes(t *testing.T) {
	in := draft.Input{
		Table: table(
			draft.Index{Name: "ByCustomer", PartitionKey: "customer_id", SortKey: "complaint_id"},
			draft.Index{Name: "ByAgent", PartitionKey: "agentID", SortKey: "comm_date"},
		),
		Items: []draft.Item{
			item("PK", "Complaint123", "SK", "metadata", "customer_id", "custABC", "complaint_id", "Complaint123", "severity", "P2"),
			item("PK", "Complaint1444", "SK", "metadata", "customer_id", "custXY", "complaint_id", "Complaint1444", "severity", "P1"),
			item("PK", "Complaint123", "SK", "comm#2023-04-30T12:00:24#comm1", "comm_date", "2023-04-30T12:00:24", "agentID", "AgentA"),
			item("PK", "Complaint123", "SK", "comm#2023-04-30T12:35:54#comm2", "comm_date", "2023-04-30T12:35:54"),
			item("PK", "Complaint1444", "SK", "comm#2022-12-31T19:32:00#comm4", "comm_date", "2022-12-31T19:32:00", "agentID", "AgentC"),
		},
	}
	m, _ := drafted(t, in, map[int]string{0: "complaints", 1: "complaints", 2: "comms", 3: "comms"})
	want := "comms PK={complaint_id} SK=comm#{comm_date}#{comm_id} agentID={agentID} comm_date={comm_date} | agentID:S comm_date:S comm_id:S complaint_id:S | optional ByAgent\n" +
		"complaints PK={complaint_id} SK=metadata complaint_id={complaint_id} customer_id={customer_id} | complaint_id:S customer_id:S severity:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
}

func TestManyDifferentWordsInOneSegmentAreValues(t *testing.T) {
	in := draft.Input{Table: table()}
	for _, u := range []string{"alice", "bob", "carol", "dave", "erin"} {
		in.Items = append(in.Items, item("PK", u, "SK", "PROFILE"), item("PK", u, "SK", "SETTINGS", "theme", "dark"))
	}
	m, _ := drafted(t, in, map[int]string{0: "shop", 1: "shop_settings"})
	want := "shop PK={pk} SK=PROFILE | pk:S\n" +
		"shop_settings PK={pk} SK=SETTINGS | pk:S theme:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
}

func TestKeysThatCannotBeToldApartMakeOneEntity(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "USER#u1", "SK", "PROFILE"),
		item("PK", "USER#u1", "SK", "a91"),
		item("PK", "USER#u2", "SK", "b07"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 1: "users", 2: "users"})
	if got, want := summary(m), "users PK=USER#{user_id} SK={sk} | sk:S user_id:S"; got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out, "two key shapes merged: their keys could not be told apart") {
		t.Errorf("the draft does not say it merged two shapes:\n%s", out)
	}
}

func TestItemsOfATypeWithAnotherKeyShapeAreLeftOutAndSaidSo(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "USER#u1", "SK", "PROFILE", "_et", "user"),
		item("PK", "USER#u2", "SK", "PROFILE", "_et", "user"),
		item("PK", "LEGACY#u3", "SK", "X#1", "_et", "user"),
		item("PK", "USER#u1", "SK", "ORDER#o1", "_et", "order"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 3: "orders"})
	want := "orders type=order PK=USER#{user_id} SK=ORDER#{order_id} | order_id:S user_id:S\n" +
		"users type=user PK=USER#{user_id} SK=PROFILE | user_id:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	note := `# Left out: 1 sample item of type user, with keys shaped unlike the rest of its type, such as PK = "LEGACY#u3", SK = "X#1".`
	if !strings.Contains(out, note) {
		t.Errorf("the draft does not say\n%s\n%s", note, out)
	}
}

// A global index keyed by the table's partition key and an attribute
// that only some entities hold is drafted: the entities with the
// attribute are in it, the others are not, as the mapping says by
// leaving the attribute out.
func TestAnIndexOnATableKeyHoldsTheEntitiesWithItsOtherKey(t *testing.T) {
	in := draft.Input{Table: table(draft.Index{Name: "ByDate", PartitionKey: "PK", SortKey: "created"}), Items: []draft.Item{
		item("PK", "USER#u1", "SK", "PROFILE", "created", "2024-01-01"),
		item("PK", "USER#u1", "SK", "ORDER#o1"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 1: "orders"})
	if got := m.IndexNames(); !slices.Equal(got, []string{"ByDate"}) {
		t.Fatalf("indexes %v, want ByDate\n%s", got, out)
	}
	if !inIndex(m.Entities["users"], "ByDate") || inIndex(m.Entities["orders"], "ByDate") {
		t.Errorf("want users in ByDate and orders not:\n%s", out)
	}
}

func inIndex(e *mapping.Entity, index string) bool {
	return slices.ContainsFunc(e.Paths(), func(p *mapping.AccessPath) bool { return p.Index == index })
}

// An entity that holds one of an index's own keys and not the other is
// not in the index: the lone key is a plain column, since DynamoDB does
// not project an item without both.
func TestALoneIndexKeyIsAPlainColumn(t *testing.T) {
	in := draft.Input{Table: table(draft.Index{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}), Items: []draft.Item{
		item("PK", "USER#u1", "SK", "PROFILE", "GSI1PK", "EMAIL#a@x"),
		item("PK", "USER#u1", "SK", "ORDER#o1", "GSI1PK", "ORDER#o1", "GSI1SK", "2024-01-01"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 1: "orders"})
	if inIndex(m.Entities["users"], "GSI1") || !inIndex(m.Entities["orders"], "GSI1") {
		t.Errorf("want orders in GSI1 and users not:\n%s", out)
	}
	if m.Entities["users"].Columns["GSI1PK"] != "S" {
		t.Errorf("users should keep GSI1PK as a plain column:\n%s", out)
	}
}

// Items first grouped apart and dropped as overlapping an entity that
// reads them (NORMAL#<date> beside WARNING1#<date>, as in AWS's device
// state log) are not left out: the draft says the entity reads them.
func TestItemsAnEntityReadsAreNotCalledLeftOut(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "D1", "SK", "WARNING1#2020-04-24T14:40:00", "Detail", "a"),
		item("PK", "D1", "SK", "WARNING2#2020-04-24T14:41:00", "Detail", "b"),
		item("PK", "D2", "SK", "WARNING3#2020-04-24T14:42:00", "Detail", "c"),
		item("PK", "D2", "SK", "WARNING4#2020-04-24T14:43:00", "Detail", "d"),
		item("PK", "D1", "SK", "NORMAL#2020-04-24T14:55:00", "Detail", "e"),
		item("PK", "D2", "SK", "NORMAL#2020-04-24T14:56:00", "Detail", "f"),
		item("PK", "D3", "SK", "NORMAL#2020-04-24T14:57:00", "Detail", "g"),
	}}
	_, out := drafted(t, in, map[int]string{0: "shop", 1: "shop", 2: "shop", 3: "shop", 4: "shop", 5: "shop", 6: "shop"})
	if strings.Contains(out, "Left out") {
		t.Errorf("the draft calls items its entity reads left out:\n%s", out)
	}
	if note := `3 sample items grouped apart at first read as it too, such as PK = "D1", SK = "NORMAL#2020-04-24T14:55:00"`; !strings.Contains(out, note) {
		t.Errorf("the draft does not say\n%s\n%s", note, out)
	}
}

func TestAnEmptyTableGivesOneEntityOfBareKeys(t *testing.T) {
	m, out := drafted(t, draft.Input{Table: table(draft.Index{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"})}, nil)
	if got, want := summary(m), "shop PK={pk} SK={sk} | pk:S sk:S"; got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out, "the sample holds no item") || !strings.Contains(out, "# Index GSI1 is left out") {
		t.Errorf("the draft does not say the sample is empty:\n%s", out)
	}
}

// An attribute named * cannot be a column (SQL reads * as every column,
// and a mapping with one does not load): the draft leaves it out and
// says so. Brackets and dots are names like any other.
func TestAnAttributeNamedStarIsLeftOut(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "u1", "SK", "PROFILE", "*", "star", "x[0]", "br", "d.e", "de"),
		item("PK", "u2", "SK", "PROFILE", "x[0]", "br"),
	}}
	m, out := drafted(t, in, map[int]string{0: "shop", 1: "shop"})
	want := "shop PK={pk} SK=PROFILE | d.e:S pk:S x[0]:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out, "attribute * cannot be a column") {
		t.Errorf("the draft does not say why * is left out:\n%s", out)
	}
}

// openOrders is Alex DeBrie's sparse index of open orders: four orders,
// of which only the two open ones carry GSI1PK and GSI1SK. gsi1pk gives
// each order's GSI1PK ("" for none).
func openOrders(gsi1pk func(status string) string) draft.Input {
	in := draft.Input{Table: table(draft.Index{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}), Open: true}
	for _, c := range []string{"alex", "bob"} {
		in.Items = append(in.Items, item("PK", "CUSTOMER#"+c, "SK", "CUSTOMER#"+c, "Username", c))
	}
	for _, o := range []struct{ c, date, id, status string }{
		{"alex", "2024-01-01", "123", "SHIPPED"}, {"alex", "2024-02-11", "124", "OPEN"},
		{"bob", "2024-03-05", "200", "SHIPPED"}, {"bob", "2024-03-09", "201", "PENDING"},
	} {
		it := item("PK", "CUSTOMER#"+o.c, "SK", "ORDER#"+o.date+"#"+o.id, "OrderId", o.id, "Status", o.status)
		if pk := gsi1pk(o.status); pk != "" {
			it["GSI1PK"], it["GSI1SK"] = s(pk), s(o.date+"#"+o.id)
		}
		in.Items = append(in.Items, it)
	}
	return in
}

// Only the open orders are in GSI1, and their GSI1PK is the literal
// "OPEN": a template of literal text and the base key's columns, which
// every order has, would make dynosql take GSI1 for complete (SELECT *
// FROM orders read 2 orders of 4) and put every inserted order in it.
// The draft leaves GSI1 out of orders and says so.
func TestASparseIndexWhoseKeysTellNothingIsLeftOutOfTheEntity(t *testing.T) {
	in := openOrders(func(status string) string {
		if status == "SHIPPED" {
			return ""
		}
		return "OPEN"
	})
	m, out := drafted(t, in, map[int]string{0: "customers", 2: "orders", 3: "orders"})
	want := "customers PK=CUSTOMER#{Username} SK=CUSTOMER#{Username} | Username:S\n" +
		"orders PK=CUSTOMER#{Username} SK=ORDER#{date}#{OrderId} | GSI1PK:S GSI1SK:S OrderId:S Status:S Username:S date:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if len(m.Indexes) != 0 {
		t.Errorf("indexes %v, want none", m.IndexNames())
	}
	for _, say := range []string{
		"# Index GSI1 is left out: the keys of the items in it tell nothing of which items those are",
		`# Index GSI1 is left out of its keys: 2 of its 4 sampled items are in it, but their keys there (such as GSI1PK = "OPEN", GSI1SK = "2024-02-11#124")`,
		"dynosql does not read GSI1 for them, nor write its keys (GSI1PK, GSI1SK) on INSERT or UPDATE",
	} {
		if !strings.Contains(out, say) {
			t.Errorf("the draft does not say %q:\n%s", say, out)
		}
	}
}

// GSI1PK holds the order's Status, but only on orders not shipped: a
// shipped order has a Status and no GSI1PK. Named Status, the column
// would tell dynosql that every order is in GSI1 (WHERE Status =
// 'SHIPPED' read GSI1 and found none, and INSERT of a shipped order
// wrote GSI1PK): it gets a name of its own, and the draft says why.
func TestAnIndexKeyIsNotNamedAfterAnAttributeItemsOutsideTheIndexHold(t *testing.T) {
	in := openOrders(func(status string) string {
		if status == "SHIPPED" {
			return ""
		}
		return status
	})
	m, out := drafted(t, in, map[int]string{2: "orders", 3: "orders"})
	e := m.Entities["orders"]
	if e == nil {
		t.Fatalf("no orders entity:\n%s", out)
	}
	if k := e.Key("GSI1PK"); k == nil || k.Raw != "{gsi1_pk}" || len(e.Optional) != 1 {
		t.Errorf("orders: GSI1PK %v, optional %v; want {gsi1_pk}, optional GSI1\n%s", k, e.Optional, out)
	}
	if say := "gsi1_pk: S  # nothing in the keys names it; not named Status: 2 of its 4 sampled items hold Status without GSI1PK"; !strings.Contains(out, say) {
		t.Errorf("the draft does not say %q:\n%s", say, out)
	}
}

// Repositories keyed PK = SK = REPO#<owner>#<name>: a name after a value
// reads as a label on its own, but fifteen of them in the one place
// where the keys differ are values. Each repository was an entity of
// its own, and repositories not in the sample belonged to none.
func TestManyWordsInEverySegmentThatHoldsThemAreValues(t *testing.T) {
	in := draft.Input{Table: table()}
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron"}
	for i, n := range names {
		owner := []string{"alice", "bob", "carol"}[i%3]
		key := "REPO#" + owner + "#" + n
		in.Items = append(in.Items, item("PK", key, "SK", key, "RepoName", n, "Owner", owner))
	}
	m, out := drafted(t, in, map[int]string{0: "repos", 14: "repos"})
	if got, want := summary(m), "repos PK=REPO#{Owner}#{RepoName} SK=REPO#{Owner}#{RepoName} | Owner:S RepoName:S"; got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if say := `15 different words in one place of its keys ("alpha", "beta", "delta" (12 more)) are taken for values of a column`; !strings.Contains(out, say) {
		t.Errorf("the draft does not say %q:\n%s", say, out)
	}
}

// Five repositories with three stars each: each word goes with one owner,
// where a label (u#1#follower, u#2#follower) goes with many. COUNT(*)
// FROM stars found one repository's 3 stars of 15.
func TestWordsThatEachGoWithOneValueOfTheRestOfTheKeyAreValues(t *testing.T) {
	in := draft.Input{Table: table()}
	for i, n := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		owner := []string{"alice", "bob", "carol"}[i%3]
		for _, u := range []string{"dan", "erin", "fay"} {
			in.Items = append(in.Items, item("PK", "REPO#"+owner+"#"+n, "SK", "STAR#"+u, "StarringUser", u))
		}
	}
	m, out := drafted(t, in, map[int]string{0: "stars", 14: "stars"})
	if got, want := summary(m), "stars PK=REPO#{repo_id}#{repo_id_2} SK=STAR#{StarringUser} | StarringUser:S repo_id:S repo_id_2:S"; got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if say := "each goes with one value of the rest of its key"; !strings.Contains(out, say) {
		t.Errorf("the draft does not say %q:\n%s", say, out)
	}

	// Labels after a value, each with many users, stay labels; and one
	// word the whole sample holds is said to be a guess.
	in = draft.Input{Table: table()}
	for _, u := range []string{"u1", "u2", "u3"} {
		for _, l := range []string{"follower", "following"} {
			for _, o := range []string{"u7", "u8"} {
				in.Items = append(in.Items, item("PK", "u#"+u+"#"+l, "SK", o))
			}
		}
	}
	m, out = drafted(t, in, nil)
	if got := summary(m); !strings.Contains(got, "PK=u#{u_id}#follower ") || !strings.Contains(got, "PK=u#{u_id}#following ") {
		t.Errorf("drafted\n%s\nwant one entity keyed u#{u_id}#follower and one u#{u_id}#following", got)
	}
	if say := `"follower" is taken for literal text, as every sample item here holds it`; !strings.Contains(out, say) {
		t.Errorf("the draft does not say %q:\n%s", say, out)
	}
}

// PK is a bare username, SK PROFILE or ORDER#n: the usernames are values
// of the profiles' {pk}, so the orders of every user are one entity, not
// one entity per user (orders keyed PK = "alice", then bobs, carols...).
// Without profiles, three or more partitions named by a word and keyed
// alike within are one entity too.
func TestWordsThatAreValuesElsewhereAreValues(t *testing.T) {
	for _, tc := range []struct {
		users    []string
		profiles bool
	}{{[]string{"alice", "bob"}, true}, {[]string{"alice", "bob", "carol", "dave"}, true}, {[]string{"alice", "bob", "carol"}, false}} {
		in := draft.Input{Table: table()}
		for _, u := range tc.users {
			if tc.profiles {
				in.Items = append(in.Items, item("PK", u, "SK", "PROFILE", "Email", u+"@x"))
			}
			for n := range 3 {
				in.Items = append(in.Items, item("PK", u, "SK", fmt.Sprintf("ORDER#%d", 100+n), "Amount", n))
			}
		}
		m, out := drafted(t, in, map[int]string{1: "orders", len(in.Items) - 1: "orders"})
		want := "orders PK={pk} SK=ORDER#{order_id} | Amount:N order_id:S pk:S"
		if tc.profiles {
			want += "\nshop PK={pk} SK=PROFILE | Email:S pk:S"
		}
		if got := summary(m); got != want {
			t.Errorf("%d users (profiles %v): drafted\n%s\nwant\n%s", len(tc.users), tc.profiles, got, want)
		}
		if !strings.Contains(out, "are taken for values of a column, not literal text") {
			t.Errorf("the draft does not say it took words for values:\n%s", out)
		}
	}
}

// An adjacency list: groups keyed GROUP#g / GROUP#g are groups, the
// memberships USER#u / GROUP#g that point at them are not; and the items
// of an order (ORDER#id / ORDER#id#ITEM#n) are its items.
func TestEntitiesKeyedByThemselvesHaveFirstClaimOnTheirName(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "USER#u1", "SK", "USER#u1", "Name", "Ann"),
		item("PK", "USER#u2", "SK", "USER#u2", "Name", "Ben"),
		item("PK", "GROUP#g1", "SK", "GROUP#g1", "Title", "admins"),
		item("PK", "GROUP#g2", "SK", "GROUP#g2", "Title", "devs"),
		item("PK", "USER#u1", "SK", "GROUP#g1", "Role", "owner"),
		item("PK", "USER#u2", "SK", "GROUP#g1", "Role", "member"),
		item("PK", "USER#u2", "SK", "GROUP#g2", "Role", "member"),
	}}
	drafted(t, in, map[int]string{0: "users", 2: "groups", 4: "user_groups"})

	// The orders themselves (ORDER#100 / ORDER#100) cannot be told apart
	// from their items without a type attribute: they are left out, and
	// the items keep their own name.
	in = draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "ORDER#100", "SK", "ORDER#100#ITEM#1", "Sku", "A1"),
		item("PK", "ORDER#100", "SK", "ORDER#100#ITEM#2", "Sku", "B2"),
		item("PK", "ORDER#101", "SK", "ORDER#101#ITEM#1", "Sku", "C3"),
		item("PK", "ORDER#100", "SK", "ORDER#100", "Total", 30),
		item("PK", "ORDER#101", "SK", "ORDER#101", "Total", 12),
	}}
	_, out := drafted(t, in, map[int]string{0: "order_items", 2: "order_items"})
	if !strings.Contains(out, "# Left out: 2 sample items whose keys cannot be told apart") {
		t.Errorf("the draft does not say the orders are left out:\n%s", out)
	}
}

// A key column named after an attribute that holds numbers in most items
// and text in one is drafted S (the key holds text), and the draft says
// so: read as S, every number would come back as text and sort as text.
func TestAKeyColumnOfMixedTypesIsNoted(t *testing.T) {
	in := draft.Input{
		Table: draft.Table{Name: "Stock", PartitionKey: "PK", SortKey: "SK", KeyTypes: map[string]string{"PK": "S", "SK": "S"}},
		Items: []draft.Item{
			item("PK", "P#0", "SK", "X", "qty", 0), item("PK", "P#1", "SK", "X", "qty", 1),
			item("PK", "P#2", "SK", "X", "qty", "2"), item("PK", "P#3", "SK", "X", "qty", 3),
		},
	}
	m, out := drafted(t, in, map[int]string{})
	for _, e := range m.Entities {
		if typ, ok := e.Columns["qty"]; !ok || typ != "S" {
			t.Errorf("qty is %q in %s, want S:\n%s", typ, e.Name, out)
		}
	}
	if !strings.Contains(out, "holds a number in 3 of 4 items and text in 1: declare qty: N") {
		t.Errorf("the draft does not say qty is mixed:\n%s", out)
	}
}

// A value that every sampled item repeats in two key attributes ("00",
// the minutes of every sampled SK and CreatedAt of the public Chat
// model) is a coincidence, not one column: shared, an item whose SK and
// CreatedAt differ there is read with a CreatedAt it does not hold, and
// an UPDATE of its SK rewrites its CreatedAt.
func TestAValueTheWholeSampleRepeatsIsNoSharedColumn(t *testing.T) {
	in := draft.Input{Table: table(draft.Index{Name: "RoomID_Comment_IDX", PartitionKey: "RoomID", SortKey: "CreatedAt", Projection: "ALL"}), Items: []draft.Item{
		item("PK", "User:UserA", "SK", "2023-04-01T12:00:00.001Z", "RoomID", "Music", "Comment", "Hello!", "CreatedAt", "2023-04-01T12:00:00.001Z"),
		item("PK", "User:UserB", "SK", "2023-04-01T12:00:01.001Z", "RoomID", "Movie", "Comment", "What's your favorite?", "CreatedAt", "2023-04-01T12:00:01.001Z"),
		item("PK", "User:UserC", "SK", "2023-04-01T12:00:05.001Z", "RoomID", "Art", "Comment", "I love aaa.", "CreatedAt", "2023-04-01T12:00:05.001Z"),
		item("PK", "User:UserA", "SK", "2023-04-01T13:00:00.001Z", "RoomID", "Music", "Comment", "I like a Rock music.", "CreatedAt", "2023-04-01T12:00:50.001Z"),
		item("PK", "Room:Music", "SK", "meta", "CreatedBy", "UserA"),
		item("PK", "User:UserA", "SK", "2023-04-01T14:00:00.001Z", "RoomID", "Art", "Comment", "Me too.", "CreatedAt", "2023-04-01T14:00:00.001Z"),
		item("PK", "Room:Art", "SK", "meta", "CreatedBy", "UserF"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 4: "rooms"})
	later := item("PK", "User:UserA", "SK", "2023-04-02T09:15:30.001Z", "RoomID", "Music", "Comment", "later", "CreatedAt", "2023-04-02T09:16:00.001Z")
	e := m.Classify(later, []*mapping.Entity{m.Entities["users"], m.Entities["rooms"]})
	if e == nil {
		t.Fatalf("the item is read as no entity\n%s", out)
	}
	row := e.Decode(later)
	for _, attr := range e.KeyAttrs() {
		got, err := e.Key(attr).Value(row)
		if err != nil || mapping.Text(got) != mapping.Text(later[attr]) {
			t.Errorf("%s of the item is %s, read back as %s (%v)\n%s", attr, mapping.Text(later[attr]), mapping.Text(got), err, out)
		}
	}
}

// Two attributes that hold the key's value in every sampled item: the
// sample cannot tell which one the key holds, and the one not chosen
// would be hidden behind the key (SELECT CreatedAt reads the key, an
// UPDATE of it moves the item). The draft says so.
func TestTwoAttributesHoldingTheKeysValueAreNamedInAComment(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		item("PK", "DOC#d1", "SK", "2024-03-01T10:00:00Z", "Title", "a", "CreatedAt", "2024-03-01T10:00:00Z", "PublishedAt", "2024-03-01T10:00:00Z"),
		item("PK", "DOC#d1", "SK", "2024-03-02T11:00:00Z", "Title", "b", "CreatedAt", "2024-03-02T11:00:00Z", "PublishedAt", "2024-03-02T11:00:00Z"),
		item("PK", "DOC#d2", "SK", "2024-03-05T09:30:00Z", "Title", "c", "CreatedAt", "2024-03-05T09:30:00Z", "PublishedAt", "2024-03-05T09:30:00Z"),
	}}
	_, out := drafted(t, in, map[int]string{0: "docs"})
	if !strings.Contains(out, "CreatedAt: S  # PublishedAt holds the same value in every sampled item") {
		t.Errorf("the draft does not say that PublishedAt holds SK's value too:\n%s", out)
	}
}
