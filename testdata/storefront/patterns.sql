-- Access patterns of storefront, our own design (testdata/README.md):
-- keys that end in literal text (ORDER#<date>#<id>#ITEM, POST#<id>#META,
-- ORDER#<id>#META), ranges on the leading column of a composite sort key,
-- a number sort key (BYSTATUS), and joins that query once per outer row.
-- Reads first, then writes in file order.

-- A customer's profile: CUST#c07 / PROFILE
SELECT * FROM customers WHERE id = 'c07';

-- A customer's orders: CUST#c07, begins_with ORDER# (40 rows, three ids holding '#')
SELECT date, id, status, total FROM orders WHERE customer = 'c07' ORDER BY date, id;

-- A customer's orders in a month: a range on the leading column of ORDER#<date>#<id>#ITEM
SELECT id, total FROM orders WHERE customer = 'c07' AND date BETWEEN '2024-05-01' AND '2024-05-31' ORDER BY id;

-- The same month as a prefix of the date
SELECT id, total FROM orders WHERE customer = 'c07' AND date LIKE '2024-05%';

-- Orders up to a day, which must not take in ORDER#2023-08-06X... keys
SELECT id FROM orders WHERE customer = 'c07' AND date <= '2023-08-06' ORDER BY id;

-- Orders after a day and the latest five, DynamoDB sorting backwards
SELECT date, id FROM orders WHERE customer = 'c07' AND date > '2025-01-01' ORDER BY date DESC, id DESC;
SELECT date, id FROM orders WHERE customer = 'c07' ORDER BY date DESC, id DESC LIMIT 5;

-- One order by its full key, and orders by id through GSI1 (ORDER#<id>#META), ids that hold the separator
SELECT status, total FROM orders WHERE customer = 'c07' AND date = '2023-07-01' AND id = 'x#ITEM';
SELECT customer, date, total FROM orders WHERE id = 'ORDER#9#ITEM';
SELECT customer, date FROM orders WHERE id IN ('o#1', 'x#ITEM', 'o0042', 'o9999');

-- Counts and sums over a customer's partition
SELECT COUNT(*), SUM(total), MIN(date), MAX(date) FROM orders WHERE customer = 'c07';
SELECT status, COUNT(*) FROM orders WHERE customer = 'c07' GROUP BY status ORDER BY status;

-- Orders of a status by total: the number sort key of BYSTATUS
SELECT id, total FROM orders WHERE status = 'open' AND total >= 500 ORDER BY total;
SELECT id, total FROM orders WHERE status = 'cancelled' AND total BETWEEN 100 AND 200.5 ORDER BY total DESC;
SELECT COUNT(*) FROM orders WHERE status = 'paid' AND total < 50;

-- Customers of a city: GSI1 CITY#<city>
SELECT id, name FROM customers WHERE city = 'Lima' ORDER BY id;

-- Customers of a city with their orders since a day: one Query per customer, with a range on the date
SELECT c.id, o.date, o.id, o.total FROM customers c JOIN orders o ON o.customer = c.id AND o.date >= '2024-01-01' WHERE c.city = 'Oslo';

-- The same with the customers who have none: a LEFT JOIN whose ON the client checks
SELECT c.id, o.id, o.total FROM customers c LEFT JOIN orders o ON o.customer = c.id AND o.total > 500 WHERE c.city = 'Lima';

-- An order's customer, from the order found by id
SELECT c.name, c.city, o.total FROM orders o JOIN customers c ON c.id = o.customer WHERE o.id IN ('o#1', 'o0100', 'o0200');

-- A post: POST#<id>#META, a number inside a string key
SELECT id, author, title, likes FROM posts WHERE id = 7;
SELECT id, title FROM posts WHERE id IN (1, 10, 1000, 8000, 404) ORDER BY id;

-- An author's posts in a year: GSI1 AUTHOR#<author>, POST#<date>#<id>#P
SELECT id, date, title FROM posts WHERE author = 'c34' AND date >= '2024-01-01' ORDER BY date;

-- Posts with their author's name
SELECT p.id, p.title, c.name FROM posts p JOIN customers c ON c.id = p.author WHERE p.id IN (1, 2, 3, 1000) ORDER BY p.id;

-- Orders by total alone would need a Scan
-- expect: refused
SELECT id FROM orders WHERE total > 800;

-- A new post, liked twice, read back by id and through its author
INSERT INTO posts (id, author, date, title, likes) VALUES (9001, 'c13', '2025-06-01', 'First post #1', 0);
UPDATE posts SET likes = likes + 2 WHERE id = 9001;
SELECT id, author, title, likes FROM posts WHERE id = 9001;
SELECT id, title FROM posts WHERE author = 'c13';

-- The same post again is a conflict
-- expect: conflict
INSERT INTO posts (id, author, date, title, likes) VALUES (9001, 'c13', '2025-06-02', 'Again', 0);

-- A new order whose id holds the literal that ends the key
INSERT INTO orders (customer, date, id, status, total, note) VALUES ('c13', '2025-06-01', 'n#ITEM#META', 'open', 19.99, 'first');
UPDATE orders SET note = 'first order #1' WHERE customer = 'c13' AND date = '2025-06-01' AND id = 'n#ITEM#META';
SELECT customer, date, id, note, total FROM orders WHERE id = 'n#ITEM#META';
SELECT date, id, note FROM orders WHERE customer = 'c13' AND date >= '2025-01-01';

-- Deleted again: nothing left under either key
DELETE FROM orders WHERE customer = 'c13' AND date = '2025-06-01' AND id = 'n#ITEM#META';
DELETE FROM posts WHERE id = 9001;
SELECT COUNT(*) FROM orders WHERE customer = 'c13';
SELECT id FROM posts WHERE author = 'c13';
