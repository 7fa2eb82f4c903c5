CREATE FUNCTION add(a integer, b integer) RETURNS integer AS $$
  SELECT a + b
$$ LANGUAGE SQL;

CREATE OR REPLACE FUNCTION billing.total(user_id bigint) RETURNS numeric AS $$
  SELECT 0
$$ LANGUAGE SQL;
