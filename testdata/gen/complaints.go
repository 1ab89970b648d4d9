package main

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// The complaint management facts tests rely on; README.md lists them.
const (
	cmGenerated   = 146             // complaints beyond the sample's four
	cmLong        = "Complaint2024" // 24 months of communications, 5 a month
	cmLongMonths  = 24
	cmLongPerMon  = 5
	cmBusyAgent   = "AgentA" // more than 100 communications
	cmEscalations = 13       // complaints escalated, the sample's two included
	cmNoComms     = "Complaint0987"
)

var cmAgents = []string{"AgentA", "AgentB", "AgentC", "AgentD", "AgentE", "AgentF", "AgentG", "AgentH"}

// cmSample is the sample data of ComplaintManagementSchema.json, kept as it
// is (placeholder texts included).
var cmSample = []line{
	{"complaints", map[string]any{"complaint_id": "Complaint123", "customer_id": "custABC", "current_state": "resolved",
		"creation_time": "2023-04-30T12:00:00", "severity": "P2", "complaint_description": "<description text>"}},
	{"complaints", map[string]any{"complaint_id": "Complaint1444", "customer_id": "custXY32", "current_state": "assigned",
		"creation_time": "2022-12-31T19:39:57", "severity": "P1", "complaint_description": "<description text>",
		"escalated_to": "AgentB", "escalation_time": "2023-01-03T04:00:07"}},
	{"complaints", map[string]any{"complaint_id": "Complaint1321", "customer_id": "custXYZ", "current_state": "investigating",
		"creation_time": "2023-05-10T15:58:00", "severity": "P2", "complaint_description": "<descr_text>",
		"escalated_to": "AgentB", "escalation_time": "2023-05-15T14:00:00"}},
	{"complaints", map[string]any{"complaint_id": "Complaint0987", "customer_id": "custXYZ", "current_state": "assigned",
		"creation_time": "2023-06-10T12:30:08", "severity": "P3", "complaint_description": "<description text>"}},
	{"communications", map[string]any{"complaint_id": "Complaint123", "comm_id": "comm1", "comm_date": "2023-04-30T12:00:24",
		"complaint_state": "investigating", "comm_text": "<comm text>", "agentID": "AgentA"}},
	{"communications", map[string]any{"complaint_id": "Complaint123", "comm_id": "comm2", "comm_date": "2023-04-30T12:35:54",
		"complaint_state": "resolved", "comm_text": "<comm text>", "agentID": "AgentA",
		"attachments": []string{"s3://URL_for_attachment1", "s3://URL_for_attachment2"}}},
	{"communications", map[string]any{"complaint_id": "Complaint1321", "comm_id": "comm3", "comm_date": "2023-05-10T16:00:00",
		"complaint_state": "investigating", "comm_text": "<comm text>", "agentID": "AgentB"}},
	{"communications", map[string]any{"complaint_id": "Complaint1444", "comm_id": "comm4", "comm_date": "2022-12-31T19:32:00",
		"complaint_state": "waiting", "comm_text": "<comm text>"}},
	{"communications", map[string]any{"complaint_id": "Complaint1444", "comm_id": "comm5", "comm_date": "2022-12-31T19:40:00",
		"complaint_state": "assigned", "comm_text": "<comm text>", "agentID": "AgentC",
		"attachments": []string{"s3://URL_for_attachment1"}}},
}

var cmIssues = []string{
	"Parcel arrived damaged",
	"Charged twice for order #%d",
	"Refund for order #%d not received",
	"Wrong item delivered",
	"Lieferung beschädigt angekommen",
	"Colis jamais reçu",
	"Subscription cancelled without notice",
	"App crashes on checkout",
	"配送が遅れています",
}

var cmAgentTexts = []string{
	"Thanks for reaching out, we are looking into ticket #%d.",
	"We have asked the warehouse for photos of the package.",
	"A replacement has been shipped; tracking follows.",
	"Nous avons transmis votre demande au service concerné.",
	"Refund of order #%d approved.",
}

var cmCustomerTexts = []string{
	"Any update on this?",
	"I attached the receipt.",
	"Still waiting — it has been a week.",
	"Danke, das Paket ist angekommen.",
}

var cmStates = []string{"waiting", "assigned", "investigating", "resolved"}

func complaints() []line {
	r := rand.New(rand.NewPCG(2024, 4))
	out := append([]line(nil), cmSample[:4]...)
	comms := append([]line(nil), cmSample[4:]...)
	nextComm := 6

	customers := []string{"custABC", "custXY32", "custXYZ", "custÖZL"}
	for len(customers) < 60 {
		c := fmt.Sprintf("cust%c%c%d", 'A'+r.IntN(26), 'A'+r.IntN(26), r.IntN(100))
		dup := false
		for _, x := range customers {
			dup = dup || x == c
		}
		if !dup {
			customers = append(customers, c)
		}
	}

	// Every communication date and escalation time is distinct, so that
	// ORDER BY comm_date ... LIMIT n has one answer.
	used := map[string]bool{}
	stamp := func(t time.Time) string {
		for used[isoSec(t)] {
			t = t.Add(time.Second)
		}
		used[isoSec(t)] = true
		return isoSec(t)
	}
	for _, l := range cmSample[4:] {
		used[l.Row["comm_date"].(string)] = true
	}

	escalated := 2 // the sample's
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range cmGenerated {
		id := fmt.Sprintf("Complaint%d", 2001+i)
		var created time.Time
		var when []time.Time
		if id == cmLong {
			created = time.Date(2023, 6, 28, 9, 0, 0, 0, time.UTC)
			for m := range cmLongMonths {
				for k := range cmLongPerMon {
					day := 2 + k*5 + r.IntN(4)
					when = append(when, time.Date(2023, time.Month(7+m), day, 8+r.IntN(10), r.IntN(60), r.IntN(60), 0, time.UTC))
				}
			}
		} else {
			created = start.Add(time.Duration(r.IntN(2*365*24*3600)) * time.Second)
			t := created
			for range r.IntN(13) {
				t = t.Add(time.Duration(600+r.IntN(5*24*3600)) * time.Second)
				when = append(when, t)
			}
		}
		cust := customers[r.IntN(len(customers))]
		if i%12 == 0 {
			cust = "custXYZ" // a customer with many complaints
		}
		issue := fill(pick(r, cmIssues), 4000+r.IntN(6000))
		row := map[string]any{
			"complaint_id":          id,
			"customer_id":           cust,
			"creation_time":         isoSec(created),
			"severity":              fmt.Sprintf("P%d", 1+r.IntN(3)),
			"complaint_description": issue,
		}
		// Communications, the complaint's state moving forward with them.
		state := 0
		for k, t := range when {
			if state < len(cmStates)-1 && (k == 0 || r.IntN(3) == 0) {
				state++
			}
			if id == cmLong {
				state = 2 // investigating, for two years
			}
			c := map[string]any{
				"complaint_id":    id,
				"comm_id":         fmt.Sprintf("comm%d", nextComm),
				"comm_date":       stamp(t),
				"complaint_state": cmStates[state],
			}
			nextComm++
			if r.IntN(10) < 7 || id == cmLong && k%2 == 0 {
				agent := cmAgents[r.IntN(len(cmAgents)-1)] // AgentH writes nothing
				if r.IntN(3) == 0 || id == cmLong {
					agent = cmBusyAgent
				}
				c["agentID"] = agent
				c["comm_text"] = fill(pick(r, cmAgentTexts), 4000+r.IntN(6000))
			} else {
				c["comm_text"] = pick(r, cmCustomerTexts)
			}
			if r.IntN(100) < 15 {
				n := 1 + r.IntN(3)
				var att []string
				for j := range n {
					att = append(att, fmt.Sprintf("s3://complaint-attachments/%s/%d.pdf", id, j+1))
				}
				c["attachments"] = att
			}
			comms = append(comms, line{"communications", c})
		}
		row["current_state"] = cmStates[state]
		if len(when) == 0 {
			row["current_state"] = "waiting"
		}
		// A few complaints are escalated (the sparse Escalations_GSI);
		// AgentH never gets one.
		if id == cmLong || i%15 == 7 {
			escalated++
			agent := cmAgents[1+r.IntN(len(cmAgents)-2)]
			if escalated%3 == 0 {
				agent = "AgentB"
			}
			row["escalated_to"] = agent
			row["escalation_time"] = stamp(created.Add(time.Duration(3600+r.IntN(7*24*3600)) * time.Second))
		}
		out = append(out, line{"complaints", row})
	}
	must(escalated == cmEscalations, "%d escalations", escalated)
	sort.SliceStable(comms, func(i, j int) bool {
		a, b := comms[i].Row, comms[j].Row
		if a["complaint_id"] != b["complaint_id"] {
			return a["complaint_id"].(string) < b["complaint_id"].(string)
		}
		return a["comm_date"].(string) < b["comm_date"].(string)
	})
	return append(out, comms...)
}

// fill puts n in place of the %d of text, if it has one.
func fill(text string, n int) string {
	if strings.Contains(text, "%d") {
		return fmt.Sprintf(text, n)
	}
	return text
}
