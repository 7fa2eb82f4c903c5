CREATE VIEW active_users AS
SELECT id, email FROM users WHERE created_at > '2024-01-01';

CREATE OR REPLACE VIEW order_counts AS
SELECT user_id, count(*) AS n FROM orders GROUP BY user_id;
