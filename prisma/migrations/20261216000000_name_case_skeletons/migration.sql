-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "formerNameSkeletonLower" TEXT,
ADD COLUMN     "formerNameSkeletonUpper" TEXT,
ADD COLUMN     "nameSkeletonLower" TEXT,
ADD COLUMN     "nameSkeletonUpper" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Account_nameSkeletonLower_key" ON "Account"("nameSkeletonLower");

-- CreateIndex
CREATE UNIQUE INDEX "Account_nameSkeletonUpper_key" ON "Account"("nameSkeletonUpper");

-- CreateIndex
CREATE INDEX "Account_formerNameSkeletonLower_idx" ON "Account"("formerNameSkeletonLower");

-- CreateIndex
CREATE INDEX "Account_formerNameSkeletonUpper_idx" ON "Account"("formerNameSkeletonUpper");
