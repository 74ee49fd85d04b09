-- CreateTable
CREATE TABLE "ErasedPlayer" (
    "id" TEXT NOT NULL,
    "erasedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ErasedPlayer_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "RatingRefund" ALTER COLUMN "cheaterId" DROP NOT NULL;

-- DropForeignKey
ALTER TABLE "RatingRefund" DROP CONSTRAINT "RatingRefund_cheaterId_fkey";

-- AddForeignKey
ALTER TABLE "RatingRefund" ADD CONSTRAINT "RatingRefund_cheaterId_fkey" FOREIGN KEY ("cheaterId") REFERENCES "Player"("id") ON DELETE SET NULL ON UPDATE CASCADE;
