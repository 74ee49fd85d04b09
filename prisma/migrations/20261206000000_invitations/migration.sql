-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "invitations" BOOLEAN NOT NULL DEFAULT true;
