-- dynosql check: the access patterns of testdata/productcatalog/patterns.sql that dynosql
-- serves with key-based requests (dynosql check exits 0 on this file).

-- Reading an item: get-item --key '{"Id":{"N":"1"}}' (here Id 101, which exists)
SELECT Id, Title, ISBN, Authors, Price, Dimensions, PageCount, InPublication FROM books WHERE Id = 101;

-- Reading an item with --consistent-read --projection-expression "Description, Price, RelatedItems"
SELECT Description, Price, RelatedItems FROM bicycles WHERE Id = 123;

-- Projection expressions: "Description, RelatedItems[0], ProductReviews.FiveStar" (whole attributes here)
SELECT Description, RelatedItems, ProductReviews FROM bicycles WHERE Id = 123;

-- Expression attribute names: an attribute whose name holds a dot, "Safety.Warning"
SELECT `Safety.Warning` FROM bicycles WHERE Id = 123;

-- BatchGetItem: up to 100 items by key (the five sample bicycles)
SELECT Id, Title, BicycleType, Price, Color FROM bicycles WHERE Id IN (201, 202, 203, 204, 205) ORDER BY Id;

-- BatchGetItem across entities: only the keys whose ProductCategory is Book come back as books
SELECT Id, Title FROM books WHERE Id IN (101, 201, 456, 1006) ORDER BY Id;

-- Reading an item of another category by its key: Id 201 is a Bicycle, so no book (0 rows)
SELECT Title FROM books WHERE Id = 201;

-- Reading an item whose title holds a '#'
SELECT Title, Price FROM books WHERE Id = 1006;

-- Reading an item: a book without Dimensions
SELECT Id, Dimensions FROM books WHERE Id IN (1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009) AND Dimensions IS NULL ORDER BY Id;

-- createItems (JavaDocumentAPICRUDExample): books 120 and 121 (without their Authors sets)
INSERT INTO books (Id, Title, ISBN, Price, Dimensions, PageCount, InPublication) VALUES (120, 'Book 120 Title', '120-1111111111', 20, '8.5x11.0x.75', 500, FALSE), (121, 'Book 121 Title', '121-1111111111', 20, '8.5x11.0x.75', 500, TRUE);

-- retrieveItem: getItem("Id", 120, "Id, ISBN, Title, Authors")
SELECT Id, ISBN, Title, Authors FROM books WHERE Id = 120;

-- updateExistingAttributeConditionally: set Price = 25 if Price = 20
UPDATE books SET Price = 25 WHERE Id = 120 AND Price = 20;

-- deleteItem: delete book 120 if InPublication = false
DELETE FROM books WHERE Id = 120 AND InPublication = FALSE;

-- Conditional put: put-item --condition-expression "attribute_not_exists(Id)"; item 456 exists
-- expect: conflict
INSERT INTO sporting_goods (Id, Price) VALUES (456, 650);

-- Conditional put of an item that does not exist yet
INSERT INTO sporting_goods (Id, Title, Price) VALUES (457, 'Badminton Set', 35.5);

-- Conditional deletes: delete 456 if "(ProductCategory IN (:cat1, :cat2)) and (Price between :lo and :hi)"; the price is 650, so nothing is deleted
DELETE FROM sporting_goods WHERE Id = 456 AND Price BETWEEN 500 AND 600;

-- Conditional updates: "SET Price = Price - :discount" if "Price > :limit" (75, 500): 650 becomes 575 ...
UPDATE sporting_goods SET Price = Price - 75 WHERE Id = 456 AND Price > 500;

-- ... "If you run the UpdateItem operation again, the Price is reduced to 500" ...
UPDATE sporting_goods SET Price = Price - 75 WHERE Id = 456 AND Price > 500;

-- ... "If you run it a third time, the condition expression evaluates to false" (0 rows)
UPDATE sporting_goods SET Price = Price - 75 WHERE Id = 456 AND Price > 500;

-- Conditional deletes, now that the price is 500
DELETE FROM sporting_goods WHERE Id = 456 AND Price BETWEEN 500 AND 600;

-- Checking for attributes in an item: delete only if it has no Price (457 has one: 0 rows)
DELETE FROM sporting_goods WHERE Id = 457 AND Price IS NULL;

-- Update expressions, modifying attributes: SET Price = :p (the guide also sets ProductCategory, which would make 789 another entity; left out)
UPDATE home_improvement SET Price = 60 WHERE Id = 789;

-- Incrementing and decrementing numeric attributes: SET Price = Price - :p (15)
UPDATE home_improvement SET Price = Price - 15 WHERE Id = 789;

-- Removing attributes: REMOVE Brand, InStock, QuantityOnHand
UPDATE home_improvement SET Brand = NULL, InStock = NULL WHERE Id = 789;

-- Reading the items the writes touched
SELECT Id, Price, InStock, Brand FROM home_improvement WHERE Id = 789;
