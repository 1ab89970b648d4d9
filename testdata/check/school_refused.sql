-- dynosql check: statements over testdata/school that only a Scan could
-- answer: dynosql check refuses each (one line each) and exits 1.

-- No key for students: name is not a key
SELECT * FROM students WHERE name = ?;

-- Every course
SELECT title FROM courses;

-- Grades are not keyed
UPDATE enrollments SET grade = 'A' WHERE grade = 'B';
