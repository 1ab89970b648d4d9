-- dynosql check: the access patterns of testdata/customerorders/patterns.sql that need a
-- Scan: dynosql check refuses each (one line each) and exits 1.

-- All open orders of every customer: IsOpenIndex is local, so this is a Scan
-- expect: refused
SELECT CustomerId, OrderId FROM orders WHERE IsOpen = 1;
