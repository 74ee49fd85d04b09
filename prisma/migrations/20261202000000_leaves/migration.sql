-- CreateTable
CREATE TABLE "Leave" (
    "roomId" TEXT NOT NULL,
    "playerId" TEXT NOT NULL,
    "gameType" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "forgivenAt" TIMESTAMP(3),

    CONSTRAINT "Leave_pkey" PRIMARY KEY ("roomId","playerId")
);

-- CreateIndex
CREATE INDEX "Leave_playerId_at_idx" ON "Leave"("playerId", "at");

-- AddForeignKey
ALTER TABLE "Leave" ADD CONSTRAINT "Leave_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
