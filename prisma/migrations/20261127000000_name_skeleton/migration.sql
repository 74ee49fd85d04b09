-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "nameSkeleton" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Account_nameSkeleton_key" ON "Account"("nameSkeleton");
