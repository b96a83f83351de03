// The CUDA driver's result codes by name, for messages when the driver cannot
// name one itself (cuGetErrorName/cuGetErrorString fail, as they may while
// the driver shuts down at process exit, or a code is newer than the
// driver's table). Pure data: no driver call, usable at any time.
#pragma once

namespace omptarget::cuda {

// "CUDA_ERROR_DEINITIALIZED" for 4; nullptr for a code the table lacks.
const char *knownErrorName(int Code);
// A short description of the code in our words; nullptr when unknown.
const char *knownErrorDescription(int Code);

}  // namespace omptarget::cuda
