-- dynosql check: statements over testdata/blog, whose posts carry a copy of
-- their author's name. Every one is served (dynosql check exits 0).

-- A post
SELECT title, authorName, tags FROM posts WHERE id = ?;

-- An author's posts, through GSI1
SELECT p.title FROM users u JOIN posts p ON p.authorId = u.id WHERE u.id = ?;

-- A new post: its authorName is read from the author first
INSERT INTO posts (id, authorId, title) VALUES (?, ?, ?);

-- Renaming an author rewrites the copies (a Query of GSI1, then
-- transactions of up to 99 copy updates)
UPDATE users SET name = ? WHERE id = ?;

-- Copies that differ from their author's name, and their repair
CHECK COPIES FOR users WHERE id = ?;
REPAIR COPIES FOR users WHERE id = ?;
