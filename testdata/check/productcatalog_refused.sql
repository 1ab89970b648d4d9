-- dynosql check: the access patterns of testdata/productcatalog/patterns.sql that need a
-- Scan: dynosql check refuses each (one line each) and exits 1.

-- Scanning: "Scan of ProductCatalog for items with a price less than 100" (ScanJavaDocumentAPI)
-- expect: refused
SELECT Id, Title, Price FROM bicycles WHERE Price < 100;

-- Scanning: book 103's price of 2000 is "Intentional. Later we'll run Scan to find price error"
-- expect: refused
SELECT Id, Title FROM books WHERE Price > 1000;

-- No sort key: a range of Ids is a Scan too
-- expect: refused
SELECT Id FROM books WHERE Id BETWEEN 101 AND 103;
