-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "totpLastStep" INTEGER,
ADD COLUMN     "totpPending" TEXT,
ADD COLUMN     "totpSecret" TEXT;
