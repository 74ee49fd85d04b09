-- A block ends following between the two accounts, both ways (platform/blocks.ts, as on Lichess):
-- the follows that stood across a block made before this are removed with it.
DELETE FROM "Follow" f
WHERE EXISTS (
  SELECT 1 FROM "Block" b
  WHERE (b."playerId" = f."playerId" AND b."blockedId" = f."followedId")
     OR (b."playerId" = f."followedId" AND b."blockedId" = f."playerId")
);
