-- CreateTable
CREATE TABLE "Note" (
    "playerId" TEXT NOT NULL,
    "aboutId" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Note_pkey" PRIMARY KEY ("playerId","aboutId")
);

-- CreateIndex
CREATE INDEX "Note_aboutId_idx" ON "Note"("aboutId");

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Note" ADD CONSTRAINT "Note_aboutId_fkey" FOREIGN KEY ("aboutId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
