-- Finding players by the start of their name (GET /api/players?q=): a prefix match on nameKey
-- whatever the database's collation, which the unique index cannot serve unless it is "C".
CREATE INDEX "Account_nameKey_idx" ON "Account"("nameKey" text_pattern_ops);
