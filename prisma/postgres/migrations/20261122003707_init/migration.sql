-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "WalletUser" (
    "address" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WalletUser_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "chainId" INTEGER NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Coil" (
    "id" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "parentManifestHash" TEXT,
    "forkOf" TEXT,
    "ownerAddress" TEXT,
    "manifestJson" TEXT NOT NULL,
    "score" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Coil_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Receipt" (
    "id" TEXT NOT NULL,
    "receiptId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "manifestHash" TEXT NOT NULL,
    "parentManifestHash" TEXT,
    "weightsChecksum" TEXT NOT NULL,
    "validationStatus" TEXT NOT NULL,
    "coilSlug" TEXT NOT NULL,
    "ownerAddress" TEXT,
    "receiptJson" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Receipt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_address_idx" ON "Session"("address");

-- CreateIndex
CREATE INDEX "Coil_slug_idx" ON "Coil"("slug");

-- CreateIndex
CREATE INDEX "Coil_manifestHash_idx" ON "Coil"("manifestHash");

-- CreateIndex
CREATE INDEX "Coil_ownerAddress_createdAt_idx" ON "Coil"("ownerAddress", "createdAt");

-- CreateIndex
CREATE INDEX "Receipt_receiptId_idx" ON "Receipt"("receiptId");

-- CreateIndex
CREATE INDEX "Receipt_manifestHash_idx" ON "Receipt"("manifestHash");

-- CreateIndex
CREATE INDEX "Receipt_ownerAddress_createdAt_idx" ON "Receipt"("ownerAddress", "createdAt");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_address_fkey" FOREIGN KEY ("address") REFERENCES "WalletUser"("address") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Coil" ADD CONSTRAINT "Coil_ownerAddress_fkey" FOREIGN KEY ("ownerAddress") REFERENCES "WalletUser"("address") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Receipt" ADD CONSTRAINT "Receipt_ownerAddress_fkey" FOREIGN KEY ("ownerAddress") REFERENCES "WalletUser"("address") ON DELETE SET NULL ON UPDATE CASCADE;

