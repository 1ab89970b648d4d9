-- Access patterns of ElectroDB's task manager example (examples/taskmanager/query.ts:
-- two collections and three entity queries), each after the text the
-- example prints for it, then variations over keys that ElectroDB
-- lower-cases. Reads first, then writes in order: a later write may
-- depend on an earlier one.

-- Workplace Collection: find office and staff information of an office (one Query of gsi1pk-gsi1sk-index)
SELECT o.officeName, o.city, e.employee, e.firstName, e.lastName, e.title FROM offices o JOIN employees e ON e.officeName = o.officeName WHERE o.officeName = 'Portland' ORDER BY e.employee;

-- Assignments for an employee: employee details and all assigned (one Query of gsi3pk-gsi3sk-index)
SELECT e.firstName, e.lastName, t.taskName, t.project, t.status FROM employees e JOIN tasks t ON t.employee = e.employee WHERE e.employee = 'JLowe' ORDER BY t.taskName;

-- Junior Developers with a salary greater than $100,000 (roles: salary compared as the text it is)
SELECT employee, salary FROM employees WHERE title = 'Junior Software Engineer' AND salary > '100000' ORDER BY employee;

-- All open tasks for a given project less than or equal to 13 points (statuses)
SELECT taskName, employee, points FROM tasks WHERE status = 'open' AND project = 'ABC-12' AND points <= 13 ORDER BY taskName;

-- Employees hired between two and five years ago (teams; fixed dates)
SELECT employee, dateHired, title FROM employees WHERE team = 'marketing' AND dateHired BETWEEN '2019-06-01' AND '2022-06-01' ORDER BY dateHired, employee;

-- An employee by id: the key holds jlowe, the row JLowe
SELECT employee, firstName, lastName, officeName FROM employees WHERE employee = 'JLowe';

-- An employee by id spelled in another case: no row has it (the key is the same)
SELECT employee, firstName FROM employees WHERE employee = 'jlowe';

-- Employees by ids, two of which share a key
SELECT employee, firstName FROM employees WHERE employee IN ('JLowe', 'jlowe', 'JLOWE', 'nobody') ORDER BY employee;

-- Direct reports of a manager (directReports, sparse; the model requires team and officeName, the mapping cannot know it)
SELECT employee, team, officeName FROM employees WHERE manager = 'JLowe' AND team IS NOT NULL AND officeName IS NOT NULL ORDER BY employee;

-- A project's tasks (project)
SELECT taskName, employee, status FROM tasks WHERE project = 'Alpha' ORDER BY taskName;

-- A project's tasks, the name spelled in another case
SELECT COUNT(*) FROM tasks WHERE project = 'alpha';

-- Offices of a state (the table's partition)
SELECT officeName, city, zip FROM offices WHERE country = 'USA' AND state = 'OR';

-- The office without staff
SELECT o.officeName, COUNT(e.employee) FROM offices o LEFT JOIN employees e ON e.officeName = o.officeName WHERE o.officeName = 'Lisbon' GROUP BY o.officeName;

-- Coworkers of a team with a title that starts so (workplaces, the sort key's leading columns)
SELECT employee, title FROM employees WHERE officeName = 'Portland' AND team = 'development' AND title LIKE 'Senior%' ORDER BY employee;

-- An employee's tasks with their office, three tables
SELECT t.taskName, e.employee, o.city FROM tasks t JOIN employees e ON e.employee = t.employee JOIN offices o ON o.officeName = e.officeName WHERE t.employee = 'JLowe' AND t.status = 'open' ORDER BY t.taskName;

-- Employees by last name: no key serves it
-- expect: refused
SELECT employee FROM employees WHERE lastName = 'Lowe';

-- Create a task (taskManager.entities.task.put)
INSERT INTO tasks (taskName, project, employee, status, points, description) VALUES ('Task-0151', 'Alpha', 'JLowe', 'open', 3, 'Write the café menu');

-- Create a task whose key is the one above in another case
-- expect: conflict
INSERT INTO tasks (taskName, project, employee, status, points) VALUES ('TASK-0151', 'alpha', 'jlowe', 'open', 5);

-- Close the task (its status is in three index keys)
UPDATE tasks SET status = 'closed' WHERE taskName = 'Task-0151' AND project = 'Alpha' AND employee = 'JLowe';

-- The same key spelled in another case updates no row
UPDATE tasks SET points = 8 WHERE taskName = 'TASK-0151' AND project = 'Alpha' AND employee = 'JLowe';

-- Move an employee to another office
UPDATE employees SET officeName = 'Gdańsk' WHERE employee = 'JLowe';

-- The employee's office after the move
SELECT e.employee, o.city, o.country FROM employees e JOIN offices o ON o.officeName = e.officeName WHERE e.employee = 'JLowe';

-- The task after the writes
SELECT taskName, status, points FROM tasks WHERE employee = 'JLowe' AND project = 'Alpha' ORDER BY taskName;

-- Delete the task
DELETE FROM tasks WHERE taskName = 'Task-0151' AND project = 'Alpha' AND employee = 'JLowe';
