-- AlterTable
ALTER TABLE "X402Authorization" ADD COLUMN "answerJson" TEXT;
ALTER TABLE "X402Authorization" ADD COLUMN "answerKeptUntil" DATETIME;
ALTER TABLE "X402Authorization" ADD COLUMN "paymentIdentifier" TEXT;
ALTER TABLE "X402Authorization" ADD COLUMN "paymentJson" TEXT;
ALTER TABLE "X402Authorization" ADD COLUMN "requestHash" TEXT;

-- CreateIndex
CREATE INDEX "X402Authorization_answerKeptUntil_idx" ON "X402Authorization"("answerKeptUntil");

-- CreateIndex
CREATE UNIQUE INDEX "X402Authorization_payer_paymentIdentifier_key" ON "X402Authorization"("payer", "paymentIdentifier");

