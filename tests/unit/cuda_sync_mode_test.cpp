// OMPTARGET_CUDA_SYNC_MODE (src/plugins/cuda/cuda_sync_mode.h): the parser,
// and applySyncMode on a driver table whose two primary-context entries are
// stubs recording what the plugin asked (no GPU, no libcuda). The whole
// plugin on the fake driver: tests/fake_cuda/sync_mode.cpp.
#include "cuda_sync_mode.h"

#include <gtest/gtest.h>

#include <string>

using namespace omptarget::cuda;

namespace {

// The stubs' primary context, and what was called.
struct StubState {
  unsigned Flags = 0;
  int Active = 0;
  CUresult GetStateResult = CUDA_SUCCESS;
  CUresult SetFlagsResult = CUDA_SUCCESS;
  int SetFlagsCalls = 0;
  int GetStateCalls = 0;
  CUdevice LastDevice = -1;
} Stub;

CUresult CUDAAPI stubGetState(CUdevice Dev, unsigned *Flags, int *Active) {
  ++Stub.GetStateCalls;
  Stub.LastDevice = Dev;
  if (Stub.GetStateResult != CUDA_SUCCESS) return Stub.GetStateResult;
  *Flags = Stub.Flags;
  *Active = Stub.Active;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI stubSetFlags(CUdevice Dev, unsigned Flags) {
  ++Stub.SetFlagsCalls;
  Stub.LastDevice = Dev;
  if (Stub.SetFlagsResult != CUDA_SUCCESS) return Stub.SetFlagsResult;
  Stub.Flags = Flags;
  return CUDA_SUCCESS;
}

Driver stubDriver() {
  Driver D;
  D.cuDevicePrimaryCtxGetState = stubGetState;
  D.cuDevicePrimaryCtxSetFlags = stubSetFlags;
  return D;
}

// applySyncMode's stderr (its warnings) on a fresh stub context.
std::string apply(SyncMode Mode, unsigned Flags, int Active, CUdevice Dev = 3) {
  Stub = StubState{};
  Stub.Flags = Flags;
  Stub.Active = Active;
  Driver D = stubDriver();
  testing::internal::CaptureStderr();
  applySyncMode(D, Dev, /*DeviceId=*/1, Mode);
  return testing::internal::GetCapturedStderr();
}

}  // namespace

TEST(CudaSyncMode, ParsesTheFourNamesInAnyCase) {
  EXPECT_EQ(parseSyncMode("auto"), SyncMode::Auto);
  EXPECT_EQ(parseSyncMode("spin"), SyncMode::Spin);
  EXPECT_EQ(parseSyncMode("yield"), SyncMode::Yield);
  EXPECT_EQ(parseSyncMode("blocking"), SyncMode::Blocking);
  EXPECT_EQ(parseSyncMode("BLOCKING"), SyncMode::Blocking);
  EXPECT_EQ(parseSyncMode("Spin"), SyncMode::Spin);
}

TEST(CudaSyncMode, RefusesEverythingElse) {
  for (const char *Bad : {"", "unset", "fast", "spinning", "block", " spin", "spin ", "1", "0x4"})
    EXPECT_EQ(parseSyncMode(Bad), std::nullopt) << "'" << Bad << "'";
}

TEST(CudaSyncMode, ModesMapToTheDriversSchedulingFlags) {
  EXPECT_EQ(schedFlags(SyncMode::Auto), unsigned(CU_CTX_SCHED_AUTO));
  EXPECT_EQ(schedFlags(SyncMode::Spin), unsigned(CU_CTX_SCHED_SPIN));
  EXPECT_EQ(schedFlags(SyncMode::Yield), unsigned(CU_CTX_SCHED_YIELD));
  EXPECT_EQ(schedFlags(SyncMode::Blocking), unsigned(CU_CTX_SCHED_BLOCKING_SYNC));
  for (SyncMode M : {SyncMode::Auto, SyncMode::Spin, SyncMode::Yield, SyncMode::Blocking})
    EXPECT_EQ(parseSyncMode(syncModeName(M)), M);
  EXPECT_STREQ(syncModeName(SyncMode::Unset), "unset");
}

TEST(CudaSyncMode, FlagsTextNamesTheSchedulingBitsAndShowsTheWord) {
  EXPECT_EQ(schedFlagsText(0), "CU_CTX_SCHED_AUTO (flags 0x0)");
  EXPECT_EQ(schedFlagsText(CU_CTX_SCHED_BLOCKING_SYNC), "CU_CTX_SCHED_BLOCKING_SYNC (flags 0x4)");
  EXPECT_EQ(schedFlagsText(CU_CTX_SCHED_SPIN | CU_CTX_LMEM_RESIZE_TO_MAX),
            "CU_CTX_SCHED_SPIN (flags 0x11)");
  EXPECT_EQ(schedFlagsText(CU_CTX_SCHED_YIELD), "CU_CTX_SCHED_YIELD (flags 0x2)");
  EXPECT_EQ(schedFlagsText(CU_CTX_SCHED_SPIN | CU_CTX_SCHED_YIELD | CU_CTX_SCHED_BLOCKING_SYNC),
            "an unknown scheduling mode (flags 0x7)");
}

TEST(CudaSyncMode, UnsetCallsNothing) {
  EXPECT_EQ(apply(SyncMode::Unset, CU_CTX_SCHED_YIELD, 0), "");
  EXPECT_EQ(Stub.GetStateCalls, 0);
  EXPECT_EQ(Stub.SetFlagsCalls, 0);
  EXPECT_EQ(Stub.Flags, unsigned(CU_CTX_SCHED_YIELD));
}

TEST(CudaSyncMode, InactiveContextGetsTheModeAndKeepsItsOtherFlags) {
  for (SyncMode M : {SyncMode::Auto, SyncMode::Spin, SyncMode::Yield, SyncMode::Blocking}) {
    EXPECT_EQ(apply(M, CU_CTX_SCHED_YIELD | CU_CTX_LMEM_RESIZE_TO_MAX, 0), "") << syncModeName(M);
    EXPECT_EQ(Stub.SetFlagsCalls, 1) << syncModeName(M);
    EXPECT_EQ(Stub.LastDevice, 3);
    EXPECT_EQ(Stub.Flags, schedFlags(M) | CU_CTX_LMEM_RESIZE_TO_MAX) << syncModeName(M);
  }
}

TEST(CudaSyncMode, ActiveContextWithOtherFlagsIsLeftAloneWithOneWarning) {
  std::string Err = apply(SyncMode::Spin, CU_CTX_SCHED_BLOCKING_SYNC, 1);
  EXPECT_EQ(Err,
            "Libomptarget warning: OMPTARGET_CUDA_SYNC_MODE=spin not applied to CUDA device 1: "
            "its primary context is already active (created by the application's CUDA runtime or "
            "another library) and keeps CU_CTX_SCHED_BLOCKING_SYNC (flags 0x4)\n");
  EXPECT_EQ(Stub.SetFlagsCalls, 0);
  EXPECT_EQ(Stub.Flags, unsigned(CU_CTX_SCHED_BLOCKING_SYNC));
}

TEST(CudaSyncMode, ActiveContextWithTheSameSchedulingSaysNothing) {
  EXPECT_EQ(apply(SyncMode::Blocking, CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_MAP_HOST, 1), "");
  EXPECT_EQ(Stub.SetFlagsCalls, 0);
  // auto against an active context the driver made with the default flags.
  EXPECT_EQ(apply(SyncMode::Auto, 0, 1), "");
  EXPECT_EQ(Stub.SetFlagsCalls, 0);
}

TEST(CudaSyncMode, DriverFailuresAreWarningsNotErrors) {
  Stub = StubState{};
  Stub.GetStateResult = CUDA_ERROR_INVALID_DEVICE;
  Driver D = stubDriver();
  testing::internal::CaptureStderr();
  applySyncMode(D, 0, 2, SyncMode::Yield);
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("Libomptarget warning: OMPTARGET_CUDA_SYNC_MODE=yield not applied to CUDA "
                     "device 2: cuDevicePrimaryCtxGetState: CUDA_ERROR_INVALID_DEVICE"),
            std::string::npos)
      << Err;
  EXPECT_EQ(Stub.SetFlagsCalls, 0);

  Stub = StubState{};
  Stub.SetFlagsResult = CUDA_ERROR_INVALID_VALUE;
  testing::internal::CaptureStderr();
  applySyncMode(D, 0, 2, SyncMode::Blocking);
  Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("OMPTARGET_CUDA_SYNC_MODE=blocking not applied to CUDA device 2: "
                     "cuDevicePrimaryCtxSetFlags: CUDA_ERROR_INVALID_VALUE"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("its primary context keeps CU_CTX_SCHED_AUTO (flags 0x0)\n"),
            std::string::npos)
      << Err;
  EXPECT_EQ(Stub.Flags, 0u);
}
