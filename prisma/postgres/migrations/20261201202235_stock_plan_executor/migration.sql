-- AlterTable
ALTER TABLE "StockReceipt" ADD COLUMN     "partnerWallet" TEXT,
ADD COLUMN     "sessionWallet" TEXT;

