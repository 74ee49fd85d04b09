-- AlterTable
ALTER TABLE "Rating" ADD COLUMN     "lastGameAt" TIMESTAMP(3);

-- Each rating's latest rated game, from the games recorded so far (a seat with a rating after it).
UPDATE "Rating" AS r
SET "lastGameAt" = latest.at
FROM (
    SELECT s."playerId", g."gameType", MAX(g."finishedAt") AS at
    FROM "GameSeat" s JOIN "Game" g ON g."id" = s."gameId"
    WHERE s."playerId" IS NOT NULL AND s."muAfter" IS NOT NULL
    GROUP BY s."playerId", g."gameType"
) AS latest
WHERE r."playerId" = latest."playerId" AND r."gameType" = latest."gameType";
