-- dynosql check: the access patterns of testdata/social/patterns.sql that dynosql
-- serves with key-based requests (dynosql check exits 0 on this file).

-- getUserInfoByUserID: Query PK=u#<userID> (the info item ...)
SELECT name, content, imageUrl FROM users WHERE user_id = '12345';

-- getUserInfoByUserID: (... and the count item of the same partition; attribute names that end in '#')
SELECT u.name, c.`follower#`, c.`following#`, c.`post#` FROM users u JOIN user_counts c ON c.user_id = u.user_id WHERE u.user_id = '12345';

-- getUserInfoByUserID: a user with no content and no image
SELECT name, content, imageUrl FROM users WHERE user_id = '99999';

-- getFollowerListByUserID: Query PK=u#<userID>#follower (120 rows)
SELECT follower_id FROM followers WHERE user_id = '12345' ORDER BY follower_id;

-- getFollowerListByUserID: as many as the count item says
SELECT COUNT(*) FROM followers WHERE user_id = '12345';

-- getFollowerListByUserID, with the followers' names: 120 user keys, more than one BatchGetItem holds
SELECT f.follower_id, u.name FROM followers f JOIN users u ON u.user_id = f.follower_id WHERE f.user_id = '12345' ORDER BY f.follower_id;

-- getFollowerListByUserID: a user nobody follows
SELECT follower_id FROM followers WHERE user_id = '99999';

-- getFollowingListByUserID: Query PK=u#<userID>#following
SELECT following_id FROM following WHERE user_id = '12345' ORDER BY following_id;

-- getFollowingListByUserID, with what those users count
SELECT f.following_id, c.`follower#`, c.`post#` FROM following f JOIN user_counts c ON c.user_id = f.following_id WHERE f.user_id = '12345' ORDER BY f.following_id;

-- getPostListByUserID: Query PK=u#<userID>#post (10 rows)
SELECT post_id, content, `timestamp` FROM posts WHERE user_id = '12345' ORDER BY `timestamp` DESC;

-- getPostListByUserID: the latest three (timestamp is no key; sorted after reading the partition)
SELECT post_id, `timestamp` FROM posts WHERE user_id = '12345' ORDER BY `timestamp` DESC LIMIT 3;

-- getPostListByUserID: those with a '#' hashtag in their text
SELECT post_id, content FROM posts WHERE user_id = '12345' AND content LIKE '%#%' ORDER BY post_id;

-- getPostListByUserID: one post, by its sort key
SELECT content, imageUrl FROM posts WHERE user_id = '12345' AND post_id = '23456';

-- getUserLikesByPostID: Query PK=<postID>#likelist
SELECT user_id FROM likes WHERE post_id = '12345' ORDER BY user_id;

-- getUserLikesByPostID, with the users' names
SELECT l.user_id, u.name FROM likes l JOIN users u ON u.user_id = l.user_id WHERE l.post_id = '12345' ORDER BY l.user_id;

-- getUserLikesByPostID: a post nobody liked
SELECT user_id FROM likes WHERE post_id = '33042';

-- getLikeCountByPostID: GetItem PK=<postID>#likecount
SELECT `like#` FROM like_counts WHERE post_id = '12345';

-- getLikeCountByPostID: the count of every post of a user (one GetItem per post, keys from the post list)
SELECT p.post_id, c.`like#` FROM posts p JOIN like_counts c ON c.post_id = p.post_id WHERE p.user_id = '12345' ORDER BY p.post_id;

-- getTimelineByUserID: Query PK=<userID>#timeline (4 rows)
SELECT post_id, author_id, ttl FROM timeline WHERE user_id = '12345' ORDER BY post_id;

-- getTimelineByUserID, with each post's text and time: the post's key comes from the timeline item's sort key
SELECT t.post_id, t.author_id, p.content, p.`timestamp` FROM timeline t JOIN posts p ON p.user_id = t.author_id AND p.post_id = t.post_id WHERE t.user_id = '12345' ORDER BY p.`timestamp` DESC;

-- getTimelineByUserID: one post of the timeline (a prefix of p#{post_id}#u#{author_id})
SELECT author_id FROM timeline WHERE user_id = '12345' AND post_id = '34567';

-- getTimelineByUserID: the items of one author (the second column of the sort key: a filter, not a key condition)
SELECT post_id FROM timeline WHERE user_id = '33034' AND author_id = '92359' ORDER BY post_id;

-- Follow: 99999 follows 78912, both sides of the edge ...
INSERT INTO followers (user_id, follower_id) VALUES ('78912', '99999');

-- ... (the following side)
INSERT INTO following (user_id, following_id) VALUES ('99999', '78912');

-- ... and both counts
UPDATE user_counts SET `follower#` = `follower#` + 1 WHERE user_id = '78912';

-- ... (the follower's count)
UPDATE user_counts SET `following#` = `following#` + 1 WHERE user_id = '99999';

-- Post: a first post, its like count, the author's count
INSERT INTO posts (user_id, post_id, content, `timestamp`) VALUES ('99999', '90001', 'First post! #hello', 1572000000);

-- ... (its like count starts at zero)
INSERT INTO like_counts (post_id, `like#`) VALUES ('90001', 0);

-- ... (the author's post count)
UPDATE user_counts SET `post#` = `post#` + 1 WHERE user_id = '99999';

-- Like: 99999 likes post 12345
INSERT INTO likes (post_id, user_id) VALUES ('12345', '99999');

-- ... (the post's like count)
UPDATE like_counts SET `like#` = `like#` + 1 WHERE post_id = '12345';

-- Like: liking twice is a duplicate key
-- expect: conflict
INSERT INTO likes (post_id, user_id) VALUES ('12345', '99999');

-- Unfollow: 23456 stops following 12345
DELETE FROM followers WHERE user_id = '12345' AND follower_id = '23456';

-- ... (the following side)
DELETE FROM following WHERE user_id = '23456' AND following_id = '12345';

-- ... (the count)
UPDATE user_counts SET `follower#` = `follower#` - 1 WHERE user_id = '12345' AND `follower#` > 0;

-- Expire timeline items (what the ttl attribute does): those of a timeline past a time (1 row)
DELETE FROM timeline WHERE user_id = '12345' AND ttl < 1574000000;

-- Edit user info: drop the profile text
UPDATE users SET content = NULL WHERE user_id = '45678';

-- getUserInfoByUserID, after the writes
SELECT u.name, c.`follower#`, c.`following#`, c.`post#` FROM users u JOIN user_counts c ON c.user_id = u.user_id WHERE u.user_id IN ('12345', '78912', '99999') ORDER BY u.user_id;
