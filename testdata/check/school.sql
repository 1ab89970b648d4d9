-- dynosql check: an application's statements over testdata/school, with ?
-- placeholders as the Go API and database/sql take them. Every one is
-- served (dynosql check exits 0 on this file).

-- A student's profile
SELECT name, email, year FROM students WHERE id = ?;

-- A student's courses: one Query for the profile and the enrollments, then
-- the courses in BatchGetItems of 100 keys
SELECT s.name, c.title, e.grade
  FROM students s
  JOIN enrollments e ON e.student_id = s.id
  JOIN courses c ON c.id = e.course_id
 WHERE s.id = ?;

-- A course's students, through GSI1
SELECT s.name FROM enrollments e JOIN students s ON s.id = e.student_id WHERE e.course_id = ?;

-- Several students at once
SELECT id, name FROM students WHERE id IN (?, ?, ?);

-- A student's grades in a date range, filtered
SELECT course_id, grade FROM enrollments
 WHERE student_id = ? AND enrolledOn BETWEEN ? AND ? AND grade IN (?, ?)
 ORDER BY course_id LIMIT ?;

-- How many courses a student takes
SELECT COUNT(*) FROM enrollments WHERE student_id = ?;

-- Courses with their number of students, a course at a time
SELECT c.title, COUNT(*) FROM courses c LEFT JOIN enrollments e ON e.course_id = c.id WHERE c.id = ? GROUP BY c.title;

-- Enroll, grade, drop
INSERT INTO enrollments (student_id, course_id, enrolledOn) VALUES (?, ?, ?);
UPDATE enrollments SET grade = ? WHERE student_id = ? AND course_id = ?;
UPDATE students SET year = year + ? WHERE id = ?;
DELETE FROM enrollments WHERE student_id = ? AND course_id = ?;

-- Everyone in a course gets a grade: one Query of GSI1, then one guarded
-- UpdateItem per enrollment found
UPDATE enrollments SET grade = ? WHERE course_id = ? AND grade IS NULL;
