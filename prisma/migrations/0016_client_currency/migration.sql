-- The currency of a client's money figures (cost, CPC, CPM, conversion value): an ISO 4217 code,
-- or NULL where nobody has said it yet. A client's ad accounts report in one currency; without it
-- 12 622.27 could be pounds, euros or dollars, and two clients' spend could not be compared.
ALTER TABLE clients ADD COLUMN currency TEXT;
ALTER TABLE clients ADD CONSTRAINT clients_currency_iso_4217 CHECK (currency ~ '^[A-Z]{3}$');
