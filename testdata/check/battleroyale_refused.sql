-- dynosql check: the access patterns of testdata/battleroyale/patterns.sql that need a
-- Scan: dynosql check refuses each (one line each) and exits 1.

-- All games on a map, open or not: OpenGamesIndex holds only open games, and no other key serves map
-- expect: refused
SELECT game_id, people FROM games WHERE `map` = 'Green Grasslands';

-- Find open games (Read): find_open_games.py scans the sparse OpenGamesIndex
-- expect: scan
SELECT game_id, `map`, open_timestamp, people FROM games WHERE open_timestamp IS NOT NULL ORDER BY open_timestamp;
