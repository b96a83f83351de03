// Marks a function as part of libomptarget.so's exported ABI (versioned by exports.map).
#pragma once
#define OMPT_EXPORT __attribute__((visibility("default")))
