-- CreateTable
CREATE TABLE "RatingRefund" (
    "gameId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "cheaterId" TEXT NOT NULL,
    "gameType" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RatingRefund_pkey" PRIMARY KEY ("gameId","playerId")
);

-- CreateIndex
CREATE INDEX "RatingRefund_playerId_at_idx" ON "RatingRefund"("playerId", "at");

-- CreateIndex
CREATE INDEX "RatingRefund_cheaterId_idx" ON "RatingRefund"("cheaterId");

-- AddForeignKey
ALTER TABLE "RatingRefund" ADD CONSTRAINT "RatingRefund_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RatingRefund" ADD CONSTRAINT "RatingRefund_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RatingRefund" ADD CONSTRAINT "RatingRefund_cheaterId_fkey" FOREIGN KEY ("cheaterId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
