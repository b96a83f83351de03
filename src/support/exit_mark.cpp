#include "exit_mark.h"

#include <atomic>
#include <cstdlib>

namespace omptarget::exit_mark {

namespace {
std::atomic<bool> Begun{false};
void mark() { Begun.store(true, std::memory_order_release); }
}  // namespace

void arm() { std::atexit(mark); }
bool begun() { return Begun.load(std::memory_order_acquire); }

}  // namespace omptarget::exit_mark
