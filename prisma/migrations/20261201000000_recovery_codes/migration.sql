-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "recoveryHash" TEXT;
