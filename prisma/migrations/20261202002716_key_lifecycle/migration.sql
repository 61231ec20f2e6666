-- AlterTable
ALTER TABLE "Receipt" ADD COLUMN "signatureJson" TEXT;
ALTER TABLE "Receipt" ADD COLUMN "signedAt" DATETIME;

-- AlterTable
ALTER TABLE "SigningKey" ADD COLUMN "privateKey" TEXT;
ALTER TABLE "SigningKey" ADD COLUMN "revocationReason" TEXT;
ALTER TABLE "SigningKey" ADD COLUMN "revokedAt" DATETIME;

