-- AlterTable
ALTER TABLE "Game" ADD COLUMN     "chat" JSONB NOT NULL DEFAULT '[]';
