-- AlterTable
ALTER TABLE "Coil" ADD COLUMN "agentId" TEXT;

-- CreateIndex
CREATE INDEX "Coil_parentManifestHash_idx" ON "Coil"("parentManifestHash");

-- CreateIndex
CREATE INDEX "Coil_agentId_idx" ON "Coil"("agentId");

-- CreateIndex
CREATE INDEX "Receipt_parentManifestHash_idx" ON "Receipt"("parentManifestHash");

