-- dynosql check: statements over testdata/blog that only a Scan could
-- answer: dynosql check refuses each (one line each) and exits 1.

-- Posts by title
SELECT id FROM posts WHERE title = ?;

-- Every author's copies at once
CHECK COPIES FOR users;
