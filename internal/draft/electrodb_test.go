package draft_test

import (
	"maps"
	"strings"
	"testing"

	"github.com/dynosql/dynosql/internal/draft"
)

// edb builds an item as ElectroDB writes one of entity typ, version 1.
func edb(typ string, kv ...any) draft.Item {
	return item(append([]any{"__edb_e__", typ, "__edb_v__", "1"}, kv...)...)
}

// Each casing ElectroDB offers is read from the keys against the
// attributes beside them: lower-cased (its default), upper-cased, or as
// given ("none", no key_casing). The templates are written by hand from
// the items.
func TestElectroDBKeysAreReadInTheCaseTheyAreWritten(t *testing.T) {
	for _, c := range []struct {
		name, casing string
		items        []draft.Item
		want         string
	}{
		{"lower", "key_casing: lower", []draft.Item{
			edb("user", "PK", "$app#user_jlowe", "SK", "$user_1", "user", "JLowe"),
			edb("user", "PK", "$app#user_ann", "SK", "$user_1", "user", "Ann"),
		}, "users type=user PK=$app#user_{user} SK=$user_1 | user:S"},
		{"upper", "key_casing: upper", []draft.Item{
			edb("user", "PK", "$APP#USER_JLOWE", "SK", "$USER_1", "user", "JLowe"),
			edb("user", "PK", "$APP#USER_ANN", "SK", "$USER_1", "user", "ann"),
		}, "users type=user PK=$APP#USER_{user} SK=$USER_1 | user:S"},
		{"none", "", []draft.Item{
			edb("user", "PK", "$app#user_JLowe", "SK", "$user_1", "user", "JLowe"),
			edb("user", "PK", "$app#user_ann", "SK", "$user_1", "user", "ann"),
		}, "users type=user PK=$app#user_{user} SK=$user_1 | user:S"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, out := drafted(t, draft.Input{Table: table(), Items: c.items}, map[int]string{0: "users", 1: "users"})
			if got := summary(m); got != c.want {
				t.Errorf("drafted\n%s\nwant\n%s\n%s", got, c.want, out)
			}
			if c.casing != "" && !strings.Contains(out, "    "+c.casing+"\n") || c.casing == "" && strings.Contains(out, "    key_casing:") {
				t.Errorf("the draft's key_casing is not %q:\n%s", c.casing, out)
			}
			for _, it := range c.items {
				if err := m.Entities["users"].CaseMisfit(it); err != nil {
					t.Error(err)
				}
			}
			if got := m.Entities["users"].Fixed; !maps.Equal(got, map[string]string{"__edb_v__": "1"}) {
				t.Errorf("fixed attributes %v, want __edb_v__ = 1, which ElectroDB needs on every item", got)
			}
		})
	}
}

// A label other than the attribute's name (ElectroDB's label option) is
// read as the attribute whose value follows it in every item; numbers are
// read back as numbers. Items of two model versions keep __edb_v__ a
// column, which no INSERT can leave out unnoticed.
func TestAnElectroDBLabelNamesItsAttributeOrIsFoundByValue(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		edb("order", "PK", "$shop#uid_u1", "SK", "$order_1#n_7", "userId", "u1", "number", 7),
		edb("order", "PK", "$shop#uid_u2", "SK", "$order_1#n_12", "userId", "u2", "number", 12, "__edb_v__", "2"),
	}}
	m, out := drafted(t, in, map[int]string{0: "orders", 1: "orders"})
	want := "orders type=order PK=$shop#uid_{userId} SK=$order_1#n_{number} | __edb_v__:S number:N userId:S"
	if got := summary(m); got != want {
		t.Errorf("drafted\n%s\nwant\n%s", got, want)
	}
	if !strings.Contains(out, "__edb_v__: S  # ElectroDB's model version, which its items do not all hold alike") {
		t.Errorf("the draft does not say why __edb_v__ matters:\n%s", out)
	}
}

// A key the format does not fit in every item (a value holding '#', keys
// of two shapes, a label that changes, two attributes the sample cannot
// tell apart) is
// read whole, as for any table, and the draft names it; key_casing then
// names only the keys read in the format.
func TestElectroDBKeysTheFormatDoesNotFitAreReadWholeAndNamed(t *testing.T) {
	gsi1 := draft.Index{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}
	gsi2 := draft.Index{Name: "GSI2", PartitionKey: "GSI2PK"}
	in := draft.Input{Table: table(gsi1, gsi2), Items: []draft.Item{
		edb("user", "PK", "$app#user_jlowe", "SK", "$user_1", "GSI1PK", "$app#team_c", "GSI1SK", "$user_1#x_k1", "GSI2PK", "$app#n_q",
			"user", "JLowe", "team", "c", "code", "k1", "alias", "q", "nick", "q"),
		edb("user", "PK", "$app#user_ann", "SK", "$user_1#x", "GSI1PK", "$app#team_a#b", "GSI1SK", "$user_1#y_k2", "GSI2PK", "$app#n_r",
			"user", "Ann", "team", "a#b", "code", "k2", "alias", "r", "nick", "r"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 1: "users"})
	e := m.Entities["users"]
	if got := e.Key("PK").Raw; got != "$app#user_{user}" {
		t.Errorf("PK drafted as %q, want $app#user_{user}", got)
	}
	for _, attr := range []string{"GSI1PK", "GSI1SK", "GSI2PK"} {
		if strings.Contains(e.Key(attr).Raw, "_{") {
			t.Errorf("%s drafted as %q, which reads a value the sample cannot place", attr, e.Key(attr).Raw)
		}
	}
	if !strings.Contains(out, "reads them whole: users.GSI1PK, users.GSI1SK, users.GSI2PK, users.SK.") {
		t.Errorf("the draft does not name the keys it reads whole:\n%s", out)
	}
	if !strings.Contains(out, "    key_casing: {PK: lower}\n") {
		t.Errorf("key_casing does not name PK alone:\n%s", out)
	}
}

// Values with no letter in another case show nothing of the keys' case:
// the draft takes ElectroDB's default and says so.
func TestAnElectroDBCasingNoValueShowsIsSaidToBeTheDefault(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		edb("day", "PK", "$cal#date_2024-05-01", "SK", "$day_1", "date", "2024-05-01"),
		edb("day", "PK", "$cal#date_2024-05-02", "SK", "$day_1", "date", "2024-05-02"),
	}}
	_, out := drafted(t, in, map[int]string{0: "days", 1: "days"})
	if !strings.Contains(out, "no sampled value shows the case of PK: key_casing lower is ElectroDB's default") ||
		!strings.Contains(out, "    key_casing: lower\n") {
		t.Errorf("the draft does not take and name ElectroDB's default casing:\n%s", out)
	}
}

// Literal text in another case than the casing the values show (which
// ElectroDB does not write, but a hand-made prefix may) would be refused
// by the mapping under that casing: such a key is read whole.
func TestAnElectroDBKeyWithLiteralTextInAnotherCaseIsReadWhole(t *testing.T) {
	in := draft.Input{Table: table(), Items: []draft.Item{
		edb("user", "PK", "$App#user_jlowe", "SK", "$user_1", "user", "JLowe"),
		edb("user", "PK", "$App#user_ann", "SK", "$user_1", "user", "Ann"),
	}}
	m, out := drafted(t, in, map[int]string{0: "users", 1: "users"})
	if got := m.Entities["users"].Key("PK").Raw; strings.Contains(got, "_{") || !strings.Contains(out, "reads them whole: users.PK.") {
		t.Errorf("PK drafted as %q, want it read whole:\n%s", got, out)
	}
}
