-- AlterTable
ALTER TABLE "GameSeat" ADD COLUMN     "forfeit" TEXT;
