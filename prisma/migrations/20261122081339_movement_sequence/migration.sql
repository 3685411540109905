-- AlterTable
ALTER TABLE "coin_movements" ADD COLUMN     "seq" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "coin_movements_customer_id_seq_key" ON "coin_movements"("customer_id", "seq" DESC);
-- Hand-written note: rows written before this migration get their sequence in the table's
-- physical order, which is their insertion order unless the table was rewritten since.
