-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "renamedAt" TIMESTAMP(3);
