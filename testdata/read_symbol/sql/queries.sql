SELECT u.email, count(o.id)
FROM users u
LEFT JOIN orders o ON o.user_id = u.id
GROUP BY u.email;

INSERT INTO users (id, email) VALUES (1, 'a@example.com');
