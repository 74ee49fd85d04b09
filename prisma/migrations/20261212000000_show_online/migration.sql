-- AlterTable
ALTER TABLE "Account" ADD COLUMN "showOnline" BOOLEAN NOT NULL DEFAULT true;
