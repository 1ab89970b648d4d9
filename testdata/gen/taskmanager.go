package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// The taskmanager facts tests rely on; README.md lists them.
const (
	tmEmployees = 60
	tmLowe      = "JLowe" // the ElectroDB docs' employee: Portland, 12 tasks, manages 6
	tmLoweTasks = 12
	tmTasks     = 150
	tmNoStaff   = "Lisbon" // an office without employees
)

var (
	// The offices: name, country, state, city, zip.
	tmOffices = [][5]string{
		{"Portland", "USA", "OR", "Portland", "97201"},
		{"Scottsdale", "USA", "AZ", "Scottsdale", "85251"},
		{"Mobile", "USA", "AL", "Mobile", "36602"},
		{"San Jose", "USA", "CA", "San Jose", "95113"},
		{"NYC", "USA", "NY", "New York", "10001"},
		{"Gdańsk", "PL", "Pomorskie", "Gdańsk", "80-001"},
		{tmNoStaff, "PT", "Lisboa", "Lisbon", "1100-148"},
	}
	tmFirst = []string{"Jim", "Tara", "Omar", "Zoë", "Ana", "Kenji", "Rosa", "Łukasz", "Chloé", "Ada", "Tomás", "Mara"}
	tmLast  = []string{"Lowe", "Miller", "Novak", "Özdemir", "Quint", "Sato", "Dubois", "Byron", "Ruiz", "Lind",
		"Kraus", "Ågren", "McKay", "DeVries", "O'Neil"}
	tmTitles = []string{"Junior Software Engineer", "Software Engineer", "Senior Software Engineer",
		"Product Manager", "Marketing Lead", "Accountant"}
	tmTeams    = []string{"development", "marketing", "finance", "product", "cool cats and kittens"}
	tmProjects = []string{"135-53", "ABC-12", "Alpha", "beta", "Q3 Launch"}
	tmStatuses = []string{"open", "in-progress", "closed"}
	tmPoints   = []int{1, 2, 3, 5, 8, 13, 21}
	tmVerbs    = []string{"Fix", "Write", "Review", "Plan", "Ship", "Test"}
	tmThings   = []string{"the login page", "Q3 budget", "onboarding docs", "the #2 release", "API keys", "café menu"}
)

// taskManager writes the three entities of ElectroDB's task manager. The
// employee ids mix cases (JLowe), as do office and project names, and
// none two differ in case only: the keys lower-case them.
func taskManager() []line {
	r := rand.New(rand.NewPCG(2026, 12))
	var out []line
	for _, o := range tmOffices {
		out = append(out, line{"offices", map[string]any{"officeName": o[0], "country": o[1], "state": o[2],
			"city": o[3], "zip": o[4], "address": fmt.Sprintf("%d %s St", 10+r.IntN(990), pick(r, tmLast))}})
	}
	ids := make([]string, 0, tmEmployees)
	seen := map[string]bool{}
	for len(ids) < tmEmployees {
		first, last := pick(r, tmFirst), pick(r, tmLast)
		id := first[:1] + strings.ReplaceAll(last, "'", "")
		if len(ids) == 0 {
			first, last, id = "Jim", "Lowe", tmLowe
		}
		if seen[strings.ToLower(id)] {
			id += fmt.Sprint(len(ids))
		}
		must(!seen[strings.ToLower(id)], "employee %s twice", id)
		seen[strings.ToLower(id)] = true
		ids = append(ids, id)
		office := tmOffices[r.IntN(len(tmOffices)-1)][0] // not the last, which has no staff
		if id == tmLowe {
			office = "Portland"
		}
		row := map[string]any{"employee": id, "firstName": first, "lastName": last, "officeName": office,
			"title": pick(r, tmTitles), "team": pick(r, tmTeams), "salary": fmt.Sprint(60000 + 5000*r.IntN(25)),
			"dateHired": time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(3200)).Format("2006-01-02"),
			"birthday":  time.Date(1965, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.IntN(13000)).Format("2006-01-02")}
		// The first five manage the others but every tenth, who has none
		// (out of the directReports index).
		switch n := len(ids) - 1; {
		case n >= 5 && n%10 != 0:
			row["manager"] = ids[n%5]
		}
		out = append(out, line{"employees", row})
	}
	for i := range tmTasks {
		employee := ids[1+r.IntN(len(ids)-1)]
		if i < tmLoweTasks {
			employee = tmLowe
		}
		out = append(out, line{"tasks", map[string]any{"taskName": fmt.Sprintf("Task-%04d", i+1),
			"project": pick(r, tmProjects), "employee": employee, "status": pick(r, tmStatuses),
			"points": pick(r, tmPoints), "description": pick(r, tmVerbs) + " " + pick(r, tmThings)}})
	}
	// Rows whose values differ from others' in case only share their
	// index partitions (gsi1pk $task-manager#officename_portland,
	// $task-manager#project_alpha; gsi3pk $task-manager#employee_jlowe),
	// where only the attribute tells them apart.
	out = append(out,
		line{"employees", map[string]any{"employee": "PShout", "firstName": "Pat", "lastName": "Shout", "officeName": "PORTLAND",
			"title": "Accountant", "team": "finance", "salary": "70000", "dateHired": "2024-02-29", "birthday": "1990-01-01", "manager": "jlowe"}},
		line{"tasks", map[string]any{"taskName": "Task-0901", "project": "alpha", "employee": "jlowe", "status": "open", "points": 2, "description": "Ship the café menu"}},
		line{"tasks", map[string]any{"taskName": "Task-0902", "project": "ALPHA", "employee": "JLOWE", "status": "Open", "points": 5, "description": "Plan Q3 budget"}})
	return out
}
