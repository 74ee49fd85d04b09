-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "silencedReason" TEXT,
ADD COLUMN     "silencedUntil" TIMESTAMP(3);
