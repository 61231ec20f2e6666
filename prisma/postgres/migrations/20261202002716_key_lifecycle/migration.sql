-- AlterTable
ALTER TABLE "Receipt" ADD COLUMN     "signatureJson" TEXT,
ADD COLUMN     "signedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "SigningKey" ADD COLUMN     "privateKey" TEXT,
ADD COLUMN     "revocationReason" TEXT,
ADD COLUMN     "revokedAt" TIMESTAMP(3);

