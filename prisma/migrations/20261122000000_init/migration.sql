-- CreateTable
CREATE TABLE "Player" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Player_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Game" (
    "id" TEXT NOT NULL,
    "gameType" TEXT NOT NULL,
    "ranked" BOOLEAN NOT NULL,
    "options" JSONB NOT NULL,
    "playerCount" INTEGER NOT NULL,
    "seed" TEXT NOT NULL,
    "commitment" TEXT NOT NULL,
    "actions" JSONB NOT NULL,
    "outcome" JSONB NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Game_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GameSeat" (
    "gameId" TEXT NOT NULL,
    "seat" INTEGER NOT NULL,
    "playerId" TEXT,
    "name" TEXT NOT NULL,
    "isBot" BOOLEAN NOT NULL,
    "score" DOUBLE PRECISION NOT NULL,
    "place" INTEGER NOT NULL,
    "muBefore" DOUBLE PRECISION,
    "sigmaBefore" DOUBLE PRECISION,
    "muAfter" DOUBLE PRECISION,
    "sigmaAfter" DOUBLE PRECISION,

    CONSTRAINT "GameSeat_pkey" PRIMARY KEY ("gameId","seat")
);

-- CreateTable
CREATE TABLE "Rating" (
    "playerId" TEXT NOT NULL,
    "gameType" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "ordinal" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Rating_pkey" PRIMARY KEY ("playerId","gameType")
);

-- CreateIndex
CREATE INDEX "Game_gameType_finishedAt_idx" ON "Game"("gameType", "finishedAt");

-- CreateIndex
CREATE INDEX "GameSeat_playerId_idx" ON "GameSeat"("playerId");

-- CreateIndex
CREATE INDEX "Rating_gameType_ordinal_idx" ON "Rating"("gameType", "ordinal");

-- AddForeignKey
ALTER TABLE "GameSeat" ADD CONSTRAINT "GameSeat_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GameSeat" ADD CONSTRAINT "GameSeat_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Rating" ADD CONSTRAINT "Rating_playerId_fkey" FOREIGN KEY ("playerId") REFERENCES "Player"("id") ON DELETE CASCADE ON UPDATE CASCADE;
