// The import worker's sandbox beyond files: a seccomp filter, installed for good, that makes the
// system calls an importer never needs fail with EPERM, on every Linux kernel since 3.17 (no
// library needed: the filter is a small classic-BPF program built here). Denied:
// - sockets of every kind (socket, socketpair, connect, bind, listen, accept): no network, no
//   AF_UNIX connection to a local service (a desktop bus, an agent);
// - signals to any other process (kill, tgkill, rt_sigqueueinfo... to a pid that is not the
//   worker's own; tkill, pidfd_send_signal): the worker cannot kill or probe its parent;
// - directing signals at another process through a file: fcntl F_SETOWN, F_SETOWN_EX and
//   F_SETSIG, F_SETFL with O_ASYNC, the ioctls FIOSETOWN, SIOCSPGRP and FIOASYNC; typing into
//   a terminal (TIOCSTI);
// - changing another process's limits, scheduling or memory placement (prlimit64,
//   sched_set*, migrate_pages, move_pages: this process only), its priority (setpriority,
//   ioprio_set), comparing or reading other processes (kcmp, perf_event_open,
//   process_madvise), the user's shared keyrings (keyctl, add_key, request_key);
// - reading or writing another process's memory (process_vm_readv/writev) and ptrace (except
//   in sanitizer builds, whose leak checker ptraces the worker's own threads; Landlock keeps
//   ptrace inside the worker's domain there);
// - any system call of a foreign ABI (32-bit or x32 calls from a 64-bit process).
// Landlock adds, on kernels that have them, the same walls at the kernel's object level
// (import_worker: TCP bind and connect from ABI 4, signals and abstract UNIX sockets from ABI 6);
// the filter alone holds every one of these walls on a kernel without Landlock.
#pragma once

namespace rig {

// Install the filter on this process and its future threads and children (needs
// PR_SET_NO_NEW_PRIVS, which it sets). False where the kernel refuses it (no seccomp, or an
// architecture this filter does not know): the process goes on without it.
bool restrictSystemCalls();

// Whether this build's filter knows the machine's architecture (x86-64, AArch64).
bool systemCallFilterAvailable();

}  // namespace rig
