-- AlterTable
ALTER TABLE "Game" ADD COLUMN     "daily" TEXT;

-- CreateTable
CREATE TABLE "DailyAttempt" (
    "gameType" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "roomId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),
    "score" DOUBLE PRECISION,
    "details" JSONB,

    CONSTRAINT "DailyAttempt_pkey" PRIMARY KEY ("gameType","day","playerId")
);

-- CreateIndex
CREATE UNIQUE INDEX "DailyAttempt_roomId_key" ON "DailyAttempt"("roomId");

-- CreateIndex
CREATE INDEX "DailyAttempt_gameType_day_score_idx" ON "DailyAttempt"("gameType", "day", "score");

-- CreateIndex
CREATE INDEX "DailyAttempt_gameType_score_idx" ON "DailyAttempt"("gameType", "score");
