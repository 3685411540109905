-- An answer recorded by reference: the row it shows (a coin movement), when the answer was
-- recorded in the same round trip as the statement that wrote that row (docs/idempotency.md).
ALTER TABLE "idempotency_records" ADD COLUMN "result_ref" UUID;
