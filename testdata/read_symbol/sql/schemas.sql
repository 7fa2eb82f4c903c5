CREATE TABLE billing.invoices (
  id BIGINT,
  amount NUMERIC(10, 2)
);

CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
