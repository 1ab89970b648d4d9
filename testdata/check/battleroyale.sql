-- dynosql check: the access patterns of testdata/battleroyale/patterns.sql that dynosql
-- serves with key-based requests (dynosql check exits 0 on this file).

-- Get user profile (Read)
SELECT username, name, email, birthdate, address FROM users WHERE username = 'carrpatrick';

-- Get user profile: a user whose key is not ASCII
SELECT username, name FROM users WHERE username = 'zoë';

-- View game (Read): fetch_game_and_players.py reads the game item ...
SELECT game_id, `map`, create_time, people, open_timestamp, creator FROM games WHERE game_id = '3d4285f0-e52b-401a-a59b-112b38c4a26b';

-- View users in game (Read): ... and its UserGameMapping items, in the same Query
SELECT username FROM game_players WHERE game_id = '3d4285f0-e52b-401a-a59b-112b38c4a26b' ORDER BY username;

-- View game and users in game together: one Query on GAME#<game_id> (fetch_game_and_players.py)
SELECT g.`map`, g.people, g.creator, p.username FROM games g JOIN game_players p ON p.game_id = g.game_id WHERE g.game_id = '3d4285f0-e52b-401a-a59b-112b38c4a26b' ORDER BY p.username;

-- View users in game with their profiles: 49 user keys, one BatchGetItem
SELECT p.username, u.name, u.email FROM game_players p JOIN users u ON u.username = p.username WHERE p.game_id = 'c6f38a6a-d1c5-4bdf-8468-24692ccc4646' ORDER BY p.username;

-- Find open games by map (Read): find_open_games_by_map.py, Query OpenGamesIndex map = :map, ScanIndexForward
SELECT game_id, open_timestamp, people, creator FROM games WHERE `map` = 'Green Grasslands' AND open_timestamp IS NOT NULL ORDER BY open_timestamp;

-- Find open games by map: the map with no open game (an empty index partition)
SELECT game_id FROM games WHERE `map` = 'Open Ocean' AND open_timestamp IS NOT NULL;

-- Find open games by map, newest first, only those with room for 10 more
SELECT game_id, open_timestamp, people FROM games WHERE `map` = 'Urban Underground' AND open_timestamp IS NOT NULL AND people <= 40 ORDER BY open_timestamp DESC LIMIT 2;

-- Find open games by map, opened since a time (a range on the index sort key)
SELECT game_id, open_timestamp FROM games WHERE `map` = 'Dirty Desert' AND open_timestamp >= '2019-04-14T00:00:00' ORDER BY open_timestamp;

-- Find all past games for a user (Read): find_games_for_user.py, Query InvertedIndex SK = USER#<username>
SELECT game_id, place FROM game_players WHERE username = 'carrpatrick' ORDER BY game_id;

-- Find all past games for a user, with each game's map and end: 31 game keys read back by key
SELECT g.game_id, g.`map`, g.end_time, p.place FROM game_players p JOIN games g ON g.game_id = p.game_id WHERE p.username = 'carrpatrick' AND g.end_time IS NOT NULL ORDER BY g.end_time DESC;

-- Find all past games for a user: the medals among them
SELECT game_id, place FROM game_players WHERE username = 'carrpatrick' AND place IS NOT NULL;

-- Find all past games for a user: a user who never played
SELECT COUNT(*) FROM game_players WHERE username = 'quietquinn';

-- Create user profile (Write)
INSERT INTO users (username, name, email, birthdate, address) VALUES ('novaplayer', 'Nova Player', 'novaplayer@example.com', '2001-02-03', '1 Main Street Apt #2, Springfield, IL 62701');

-- Update user profile (Write)
UPDATE users SET email = 'patrick.carr@example.com', address = NULL WHERE username = 'carrpatrick';

-- Create game (Write): the game item, open (so in OpenGamesIndex) with its creator as the first player
INSERT INTO games (game_id, `map`, create_time, people, open_timestamp, creator) VALUES ('0f0e0d0c-0b0a-4909-8807-060504030201', 'Open Ocean', '2019-04-16T12:00:00', 1, '2019-04-16T12:00:00', 'novaplayer');

-- Create game (Write): the creator's UserGameMapping
INSERT INTO game_players (game_id, username) VALUES ('0f0e0d0c-0b0a-4909-8807-060504030201', 'novaplayer');

-- Join game for a user (Write), join_game.py: in one transaction, SET people = people + 1 with the condition people < 50 ...
UPDATE games SET people = people + 1 WHERE game_id = 'c6f38a6a-d1c5-4bdf-8468-24692ccc4646' AND people < 50;

-- ... and put the UserGameMapping if absent (attribute_not_exists(SK))
INSERT INTO game_players (game_id, username) VALUES ('c6f38a6a-d1c5-4bdf-8468-24692ccc4646', 'vlopez');

-- Join game for a user: the game is full now (people = 50), so nothing is updated
UPDATE games SET people = people + 1 WHERE game_id = 'c6f38a6a-d1c5-4bdf-8468-24692ccc4646' AND people < 50;

-- Join game for a user: already joined, so the mapping is a duplicate key (conflict)
-- expect: conflict
INSERT INTO game_players (game_id, username) VALUES ('c6f38a6a-d1c5-4bdf-8468-24692ccc4646', 'vlopez');

-- Start game (Write), start_game.py: REMOVE open_timestamp SET start_time, if people = 50 AND creator = :requesting_user AND attribute_not_exists(start_time); the game leaves OpenGamesIndex (needs the join above)
UPDATE games SET open_timestamp = NULL, start_time = '2019-04-16T10:15:35' WHERE game_id = 'c6f38a6a-d1c5-4bdf-8468-24692ccc4646' AND people = 50 AND creator = 'gstanley' AND start_time IS NULL;

-- Start game: by someone who is not the creator, so nothing is updated
UPDATE games SET open_timestamp = NULL, start_time = '2019-04-16T10:20:00' WHERE game_id = '3d4285f0-e52b-401a-a59b-112b38c4a26b' AND people = 50 AND creator = 'carrpatrick' AND start_time IS NULL;

-- Update game for user (Write): the player's place when the game ends
UPDATE game_players SET place = 'gold' WHERE game_id = 'c9c3917e-30f3-4ba4-82c4-2e9a0e4d1cfd' AND username = 'carrpatrick';

-- Update game (Write): the game's end and medals
UPDATE games SET end_time = '2019-04-13T15:02:11', gold = 'carrpatrick' WHERE game_id = 'c9c3917e-30f3-4ba4-82c4-2e9a0e4d1cfd';

-- Find open games by map, after the writes: c6f38a6a left the index, the new game joined it
SELECT game_id FROM games WHERE `map` IN ('Urban Underground', 'Open Ocean') AND open_timestamp IS NOT NULL ORDER BY game_id;
