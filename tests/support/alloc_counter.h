// Counts heap allocations: tests/support/alloc_counter.cpp replaces the global operator new
// (every form) for the test program that links it, to prove a path allocates nothing.
#pragma once

namespace rig::testing {

// Calls to any operator new so far in this process.
long allocations();

}  // namespace rig::testing
