-- dynosql check: the access patterns of testdata/customerorders/patterns.sql that dynosql
-- serves with key-based requests (dynosql check exits 0 on this file).

-- No index: All of Bob's orders, by OrderId (Query CustomerId = :v_custid, consistent read)
SELECT OrderId, OrderCreationDate, ProductCategory, ProductName, OrderStatus, ShipmentTrackingId, IsOpen FROM orders WHERE CustomerId = 'bob@example.com' ORDER BY OrderId;

-- Using index 'IsOpenIndex': Bob's orders that are open (CustomerId = :v_custid and IsOpen = :v_isopen; only a user-specified list of attributes)
SELECT OrderCreationDate, ProductCategory, ProductName, OrderStatus FROM orders WHERE CustomerId = 'bob@example.com' AND IsOpen = 1;

-- Using index 'OrderCreationDateIndex': Bob's orders that were placed after 01/31/2015 (OrderCreationDate >= :v_orddate; only the projected attributes)
SELECT OrderId, OrderCreationDate, ProductCategory, ProductName, OrderStatus, ShipmentTrackingId FROM orders WHERE CustomerId = 'bob@example.com' AND OrderCreationDate >= 20150131 ORDER BY OrderCreationDate;

-- All of a customer's orders, by OrderId: 130 of them
SELECT COUNT(*), MIN(OrderId), MAX(OrderId) FROM orders WHERE CustomerId = 'dave@example.com';

-- All of a customer's orders, by OrderId: a range of the numeric sort key
SELECT OrderId, OrderCreationDate FROM orders WHERE CustomerId = 'dave@example.com' AND OrderId > 127 ORDER BY OrderId;

-- All of a customer's orders, by OrderId: a customer whose key is not ASCII
SELECT OrderId, ProductName FROM orders WHERE CustomerId = 'jürgen@example.com' ORDER BY OrderId;

-- Orders that were placed in a month (OrderCreationDateIndex, a range on a number: 3 rows of 72)
SELECT OrderId, OrderCreationDate, ProductName FROM orders WHERE CustomerId = 'carol@example.com' AND OrderCreationDate BETWEEN 20240501 AND 20240531 ORDER BY OrderCreationDate;

-- Orders that were placed in a month, with >= and <
SELECT OrderId FROM orders WHERE CustomerId = 'carol@example.com' AND OrderCreationDate >= 20240501 AND OrderCreationDate < 20240601 ORDER BY OrderId;

-- The latest orders (OrderCreationDateIndex read backwards)
SELECT OrderId, OrderCreationDate, ProductName FROM orders WHERE CustomerId = 'carol@example.com' ORDER BY OrderCreationDate DESC LIMIT 5;

-- Orders that were placed after a date, with an attribute OrderCreationDateIndex does not project (IsOpen)
SELECT OrderId, OrderCreationDate, IsOpen FROM orders WHERE CustomerId = 'carol@example.com' AND OrderCreationDate >= 20250601 ORDER BY OrderCreationDate;

-- Orders that are open (IsOpenIndex): a customer with two open orders of 72
SELECT OrderId, OrderStatus FROM orders WHERE CustomerId = 'carol@example.com' AND IsOpen = 1 ORDER BY OrderId;

-- Orders that are open: IS NOT NULL reads the sparse index as well
SELECT OrderId FROM orders WHERE CustomerId = 'dave@example.com' AND IsOpen IS NOT NULL ORDER BY OrderId;

-- Orders that are open: a customer with none
SELECT OrderId FROM orders WHERE CustomerId = 'erin0@example.com' AND IsOpen = 1;

-- Orders that are not open: no index holds them apart; the partition is read and filtered
SELECT COUNT(*) FROM orders WHERE CustomerId = 'bob@example.com' AND IsOpen IS NULL;

-- Orders that are open, of several customers (one Query per customer)
SELECT CustomerId, OrderId FROM orders WHERE CustomerId IN ('alice@example.com', 'bob@example.com', 'carol@example.com') AND IsOpen = 1 ORDER BY CustomerId, OrderId;

-- A new order, open: it enters IsOpenIndex (LoadData's PutItem)
INSERT INTO orders (CustomerId, OrderId, IsOpen, OrderCreationDate, ProductCategory, ProductName, OrderStatus) VALUES ('bob@example.com', 8, 1, 20150401, 'Book', 'Fishing Basics', 'ORDER RECEIVED');

-- A new order for a customer who had none
INSERT INTO orders (CustomerId, OrderId, OrderCreationDate, ProductCategory, ProductName, OrderStatus, ShipmentTrackingId) VALUES ('zoë@example.com', 1, 20250701, 'Garden', 'Rake & Hoe Set', 'DELIVERED', '000001');

-- An order ships: IsOpen is removed, so it leaves IsOpenIndex
UPDATE orders SET IsOpen = NULL, OrderStatus = 'IN TRANSIT', ShipmentTrackingId = '123456' WHERE CustomerId = 'bob@example.com' AND OrderId = 4;

-- An order cancelled while open
DELETE FROM orders WHERE CustomerId = 'carol@example.com' AND OrderId = 72 AND IsOpen = 1;

-- Bob's orders that are open, after the writes: order 8 only
SELECT OrderId, OrderStatus FROM orders WHERE CustomerId = 'bob@example.com' AND IsOpen = 1;
