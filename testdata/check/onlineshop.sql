-- dynosql check: the access patterns of testdata/onlineshop/patterns.sql that dynosql
-- serves with key-based requests (dynosql check exits 0 on this file).

-- Get customer for a given customerId: Table PK=c#12345 and SK=c#12345
SELECT Name, Email FROM customers WHERE customer_id = '12345';

-- Get customer for a given customerId: a customer with no Email
SELECT Name, Email FROM customers WHERE customer_id = '16180';

-- Get product for a given productId: Table PK=p#99887 and SK=p#99887
SELECT Detail, Price FROM products WHERE product_id = '99887';

-- Get warehouse for a given warehouseId: Table PK=w#12345 and SK=w#12345
SELECT Address FROM warehouses WHERE warehouse_id = '12345';

-- Get a product inventory for all warehouses by a productId: Table PK=p#99887 and SK begins_with "w#"
SELECT warehouse_id, Quantity FROM warehouse_items WHERE product_id = '99887' ORDER BY warehouse_id;

-- Get all order details for a given orderId: Table PK=o#12345 (its order items and invoice)
SELECT oi.product_id, oi.Quantity, oi.Price, i.invoice_id, i.Amount FROM order_items oi JOIN invoices i ON i.order_id = oi.order_id WHERE oi.order_id = '12345' ORDER BY oi.product_id;

-- Get all order details for a given orderId: its shipments and what each holds
SELECT s.shipment_id, s.warehouse_id, si.product_id, si.Quantity FROM shipments s JOIN shipment_items si ON si.shipment_id = s.shipment_id AND si.order_id = s.order_id WHERE s.order_id = '12345' ORDER BY s.shipment_id, si.product_id;

-- Get all products for a given orderId: Table PK=o#12345 and SK begins_with "p#"
SELECT product_id, Quantity, Price FROM order_items WHERE order_id = '12345' ORDER BY product_id;

-- Get all products for a given orderId, with each product's details
SELECT oi.product_id, p.Detail, oi.Quantity FROM order_items oi JOIN products p ON p.product_id = oi.product_id WHERE oi.order_id = '12345' ORDER BY oi.product_id;

-- Get invoice for a given orderId: Table PK=o#12345 and SK begins_with "i#"
SELECT invoice_id, invoice_date, Amount FROM invoices WHERE order_id = '12345';

-- Get all shipments for a given orderId: Table PK=o#12345 and SK begins_with "sh#" (not the shp# shipment items)
SELECT shipment_id, warehouse_id, `Type`, `Date` FROM shipments WHERE order_id = '12345' ORDER BY shipment_id;

-- Get all orders for a given productId for a given date range: GSI1 PK=p#99887 and SK between "2020-06-21T00:00:00" and "2020-06-21T23:59:00" (2 rows)
SELECT order_id, order_date, Quantity FROM order_items WHERE product_id = '99887' AND order_date BETWEEN '2020-06-21T00:00:00' AND '2020-06-21T23:59:00' ORDER BY order_date;

-- Get all orders for a given productId: The Book is in 110 orders
SELECT COUNT(*) FROM order_items WHERE product_id = '99887';

-- Get all orders for a given productId for a given date range, the latest five
SELECT order_id, order_date FROM order_items WHERE product_id = '99887' AND order_date < '2021-01-01' ORDER BY order_date DESC LIMIT 5;

-- Get all orders for a given productId for a given date range, with each order's invoice (55 orders in 2020)
SELECT oi.order_id, i.invoice_id, i.Amount FROM order_items oi JOIN invoices i ON i.order_id = oi.order_id WHERE oi.product_id = '99887' AND oi.order_date LIKE '2020%' ORDER BY oi.order_id;

-- Get invoice for a given invoiceId: GSI1 PK=i#55443 and SK=i#55443
SELECT order_id, customer_id, invoice_date, Amount FROM invoices WHERE invoice_id = '55443';

-- Get all payments for a given invoiceId: GSI1 PK=i#55443 (and SK begins_with "pmn#", the payment items of the facets)
SELECT payment_id, `Type`, Amount, `Date` FROM payments WHERE invoice_id = '55443' ORDER BY payment_id;

-- Get all payments for a given invoiceId: an invoice with a refund (a negative amount)
SELECT `Type`, Amount FROM payments WHERE invoice_id = '66596' ORDER BY Amount;

-- Get invoice for a given invoiceId with all its payments: one Query on GSI1 PK=i#55443
SELECT i.Amount AS invoiced, SUM(p.Amount) AS paid FROM invoices i JOIN payments p ON p.invoice_id = i.invoice_id WHERE i.invoice_id = '55443' GROUP BY i.Amount;

-- Get shipment detail for a given shipmentId: GSI1 PK=sh#98765 (the shipment ...)
SELECT order_id, warehouse_id, `Type`, `Date`, Address FROM shipments WHERE shipment_id = '98765';

-- Get shipment detail for a given shipmentId: (... and its shipment items, GSI1 SK begins_with "p#")
SELECT product_id, Quantity FROM shipment_items WHERE shipment_id = '98765' ORDER BY product_id;

-- Get all shipments for a given warehouseId: GSI2 PK=w#12376 and SK begins_with "sh#" (42 rows)
SELECT shipment_id, order_id, `Date` FROM shipments WHERE warehouse_id = '12376' ORDER BY shipment_id;

-- Get all shipments for a given warehouseId: Kiruna ships nothing
SELECT shipment_id FROM shipments WHERE warehouse_id = '99999';

-- Get inventory of all products for a given warehouseId: GSI2 PK=w#12345 and SK begins_with "p#" (29 rows)
SELECT product_id, Quantity FROM warehouse_items WHERE warehouse_id = '12345' ORDER BY product_id;

-- Get inventory of all products for a given warehouseId, out of stock only, with the products' details
SELECT wi.product_id, p.Detail FROM warehouse_items wi JOIN products p ON p.product_id = wi.product_id WHERE wi.warehouse_id = '23001' AND wi.Quantity = 0 ORDER BY wi.product_id;

-- Get all invoices for a given customerId for a given date range: GSI2 PK=c#12345 and SK between "i#2020-06-01" and "i#2020-06-15" (2 rows)
SELECT invoice_id, invoice_date, Amount FROM invoices WHERE customer_id = '12345' AND invoice_date BETWEEN '2020-06-01' AND '2020-06-15' ORDER BY invoice_date;

-- Get all invoices for a given customerId for a given date range: one month (3 rows)
SELECT invoice_id, invoice_date FROM invoices WHERE customer_id = '12345' AND invoice_date >= '2020-06-01' AND invoice_date < '2020-07-01' ORDER BY invoice_date;

-- Get all invoices for a given customerId for a given date range: from a date on (3 rows; the p# items after i# in GSI2 are not invoices)
SELECT invoice_id, invoice_date FROM invoices WHERE customer_id = '12345' AND invoice_date >= '2021-06-01' ORDER BY invoice_date;

-- Get all invoices for a given customerId, the latest three of 72
SELECT invoice_id, invoice_date, Amount FROM invoices WHERE customer_id = '12345' ORDER BY invoice_date DESC LIMIT 3;

-- Get all invoices for a given customerId: a customer who never ordered
SELECT COUNT(*) FROM invoices WHERE customer_id = '54321';

-- Get all products ordered by a given customerId for a given date range: GSI2 PK=c#12345 and SK between "p#2020-06-01" and "p#2020-06-15" (4 rows)
SELECT product_id, order_date, Quantity FROM order_items WHERE customer_id = '12345' AND order_date BETWEEN '2020-06-01' AND '2020-06-15' ORDER BY order_date;

-- Get all products ordered by a given customerId for a given date range: up to a date (6 rows; the i# items before p# in GSI2 are not order items)
SELECT product_id, order_date FROM order_items WHERE customer_id = '12345' AND order_date < '2019-08-01' ORDER BY order_date;

-- Get all products ordered by a given customerId for a given date range: a year, counted per product (185 order items over two years)
SELECT product_id, COUNT(*) AS times, SUM(Quantity) AS copies FROM order_items WHERE customer_id = '12345' AND order_date LIKE '2020%' GROUP BY product_id HAVING COUNT(*) > 1 ORDER BY product_id;

-- A customer places an order (the use case): its order items ...
INSERT INTO order_items (order_id, product_id, order_date, customer_id, Quantity, Price) VALUES ('90001', '99887', '2021-07-01T10:00:00', '54321', 1, 40), ('90001', '12345', '2021-07-01T10:02:00', '54321', 2, 100);

-- ... its invoice ...
INSERT INTO invoices (order_id, invoice_id, customer_id, invoice_date, Amount) VALUES ('90001', '90002', '54321', '2021-07-01T10:00:00', 240);

-- ... and its payments, a discount code and a card
INSERT INTO payments (order_id, payment_id, invoice_id, `Type`, Amount, `Date`) VALUES ('90001', '90003', '90002', 'DiscountCode', 12.5, '2021-07-01T10:30:00'), ('90001', '90004', '90002', 'Visa', 227.5, '2021-07-01T10:30:00');

-- A WarehouseItem "would normally be updated when a product is added or removed from a warehouse": two copies of The Book leave Goteborg
UPDATE warehouse_items SET Quantity = Quantity - 2 WHERE product_id = '99887' AND warehouse_id = '12345' AND Quantity >= 2;

-- ... added to a warehouse that had nothing
INSERT INTO warehouse_items (product_id, warehouse_id, Quantity) VALUES ('99887', '99999', 10);

-- ... removed from a warehouse altogether
DELETE FROM warehouse_items WHERE product_id = '12345' AND warehouse_id = '12345';

-- Get all invoices for a given customerId, after the writes: Henrik has one
SELECT invoice_id, Amount FROM invoices WHERE customer_id = '54321';

-- Get a product inventory for all warehouses by a productId, after the writes
SELECT warehouse_id, Quantity FROM warehouse_items WHERE product_id = '99887' ORDER BY warehouse_id;
