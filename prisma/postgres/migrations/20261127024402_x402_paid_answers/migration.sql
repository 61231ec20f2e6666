-- AlterTable
ALTER TABLE "X402Authorization" ADD COLUMN     "answerJson" TEXT,
ADD COLUMN     "answerKeptUntil" TIMESTAMP(3),
ADD COLUMN     "paymentIdentifier" TEXT,
ADD COLUMN     "paymentJson" TEXT,
ADD COLUMN     "requestHash" TEXT;

-- CreateIndex
CREATE INDEX "X402Authorization_answerKeptUntil_idx" ON "X402Authorization"("answerKeptUntil");

-- CreateIndex
CREATE UNIQUE INDEX "X402Authorization_payer_paymentIdentifier_key" ON "X402Authorization"("payer", "paymentIdentifier");

