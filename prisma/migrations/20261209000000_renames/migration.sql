-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "formerName" TEXT,
ADD COLUMN     "formerNameKey" TEXT,
ADD COLUMN     "formerNameSkeleton" TEXT,
ADD COLUMN     "formerUntil" TIMESTAMP(3),
ADD COLUMN     "renamedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Account_formerNameKey_idx" ON "Account"("formerNameKey");

-- CreateIndex
CREATE INDEX "Account_formerNameSkeleton_idx" ON "Account"("formerNameSkeleton");
