// ParallelCopier (src/plugins/cuda/cuda_staging.h), the staging pipeline's
// split memcpy, without a driver: with helpers (the pipeline gives it
// min(8, cores / 2) threads, so a 2-core machine never starts one) every
// byte of many back-to-back copies arrives, which needs every helper woken
// for every job and the caller woken when the last one is done (a missed
// wake-up hangs the test). Runs under TSan in CI.
#include "cuda_staging.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using omptarget::cuda::ParallelCopier;

namespace {

std::vector<uint8_t> pattern(size_t Size, uint8_t Seed) {
  std::vector<uint8_t> V(Size);
  for (size_t I = 0; I < Size; ++I) V[I] = static_cast<uint8_t>(I * 31 + Seed);
  return V;
}

TEST(ParallelCopier, HelpersCopyEverySliceOfManyJobs) {
  ParallelCopier Copier(4);
  ASSERT_GE(Copier.threads(), 1u);
  // Sizes above the parallel threshold (1 MiB), one not a multiple of a
  // page or of the thread count, and one small enough to go alone.
  const size_t Sizes[] = {size_t(4) << 20, (size_t(3) << 20) + 12345, 4096};
  for (int Round = 0; Round < 50; ++Round)
    for (size_t Size : Sizes) {
      std::vector<uint8_t> Src = pattern(Size, static_cast<uint8_t>(Round));
      std::vector<uint8_t> Dst(Size, 0);
      Copier.copy(Dst.data(), Src.data(), Size);
      ASSERT_EQ(Dst, Src) << "round " << Round << ", " << Size << " bytes";
    }
}

TEST(ParallelCopier, OneThreadCopiesAlone) {
  ParallelCopier Copier(1);
  EXPECT_EQ(Copier.threads(), 1u);
  std::vector<uint8_t> Src = pattern(size_t(2) << 20, 7), Dst(Src.size());
  Copier.copy(Dst.data(), Src.data(), Src.size());
  EXPECT_EQ(Dst, Src);
}

}  // namespace
