#include "platform/syscall_filter.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#define RIGVIEW_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RIGVIEW_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

// The leak checker of AddressSanitizer / LeakSanitizer stops the process's threads with ptrace.
#if defined(__SANITIZE_ADDRESS__)
#define RIGVIEW_PTRACE_NEEDED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define RIGVIEW_PTRACE_NEEDED 1
#endif
#endif

namespace rig {

#ifdef RIGVIEW_AUDIT_ARCH

namespace {

class Program {
public:
    void stmt(uint16_t code, uint32_t k) { p_.push_back(sock_filter{code, 0, 0, k}); }
    void jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { p_.push_back(sock_filter{code, jt, jf, k}); }
    std::vector<sock_filter>& code() { return p_; }

private:
    std::vector<sock_filter> p_;
};

constexpr uint32_t kDeny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

// System calls that always fail.
const long kDenied[] = {
    SYS_socket, SYS_socketpair, SYS_connect, SYS_bind, SYS_listen, SYS_accept4,
#ifdef SYS_accept
    SYS_accept,
#endif
    SYS_process_vm_readv, SYS_process_vm_writev, SYS_tkill,
    // Other processes' state: comparing their resources, reading their events, their
    // priorities (setpriority and ioprio_set also name groups and users), the keyrings the
    // user's processes share.
    SYS_kcmp, SYS_perf_event_open, SYS_setpriority, SYS_ioprio_set, SYS_keyctl, SYS_add_key, SYS_request_key,
#ifdef SYS_process_madvise
    SYS_process_madvise,
#endif
#ifdef SYS_process_mrelease
    SYS_process_mrelease,
#endif
#ifndef RIGVIEW_PTRACE_NEEDED
    SYS_ptrace,
#endif
#ifdef SYS_pidfd_send_signal
    SYS_pidfd_send_signal,
#endif
#ifdef SYS_pidfd_getfd
    SYS_pidfd_getfd,
#endif
    // io_uring runs connects and opens of its own, which no filter on system calls sees.
#ifdef SYS_io_uring_setup
    SYS_io_uring_setup, SYS_io_uring_enter, SYS_io_uring_register,
#endif
};

// System calls that signal a process named by their first argument: allowed for this process
// only (abort() and raise() signal themselves through tgkill).
const long kSelfOnly[] = {SYS_kill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo};

// System calls that change another process named by their first argument (its limits, its
// scheduling, where its memory lives): allowed on this process (0 or its pid) only. glibc's
// setrlimit is prlimit64(0, ...).
const long kSelfOrZero[] = {SYS_prlimit64,     SYS_sched_setaffinity, SYS_sched_setscheduler, SYS_sched_setparam,
#ifdef SYS_sched_setattr
                            SYS_sched_setattr,
#endif
                            SYS_migrate_pages, SYS_move_pages};

// fcntl commands that direct signals (SIGIO / SIGURG, or any signal F_SETSIG names) at a process
// or group of the caller's choosing when the file becomes readable: F_SETOWN, F_SETOWN_EX,
// F_SETSIG. F_SETFL with O_ASYNC turns that delivery on. The ioctl forms of the same
// (FIOSETOWN, SIOCSPGRP, FIOASYNC), and TIOCSTI, which types into a terminal another process
// reads (the worker shares its parent's session, so /dev/tty may be its terminal).
constexpr uint32_t kFcntlSetOwn = 8, kFcntlSetSig = 10, kFcntlSetOwnEx = 15, kFcntlSetFl = 4;
constexpr uint32_t kAsyncFlag = 020000;  // O_ASYNC (FASYNC) on x86-64 and AArch64
constexpr uint32_t kIoctlSetOwn = 0x8901, kIoctlSetPgrp = 0x8902, kIoctlAsync = 0x5452, kIoctlSti = 0x5412;

}  // namespace

bool systemCallFilterAvailable() { return true; }

bool restrictSystemCalls() {
    Program p;
    p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, RIGVIEW_AUDIT_ARCH, 1, 0);
    p.stmt(BPF_RET | BPF_K, kDeny);
    p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#ifdef __x86_64__
    p.jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u /* __X32_SYSCALL_BIT */, 0, 1);
    p.stmt(BPF_RET | BPF_K, kDeny);
#endif
    for (long nr : kDenied) {
        p.jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1);
        p.stmt(BPF_RET | BPF_K, kDeny);
    }
    // The pid is an int: the argument's low 32 bits (both architectures are little-endian).
    const uint32_t self = static_cast<uint32_t>(::getpid());
    for (long nr : kSelfOnly) {
        p.jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 4);
        p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]));
        p.jump(BPF_JMP | BPF_JEQ | BPF_K, self, 0, 1);
        p.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        p.stmt(BPF_RET | BPF_K, kDeny);
    }
    for (long nr : kSelfOrZero) {
        p.jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 5);
        p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]));
        p.jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0);
        p.jump(BPF_JMP | BPF_JEQ | BPF_K, self, 1, 0);
        p.stmt(BPF_RET | BPF_K, kDeny);
        p.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    // fcntl(fd, cmd, arg): the commands, then F_SETFL's flags (arg's low word).
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_fcntl, 0, 9);
    p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[1]));
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kFcntlSetOwn, 5, 0);
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kFcntlSetOwnEx, 4, 0);
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kFcntlSetSig, 3, 0);
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kFcntlSetFl, 0, 3);
    p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[2]));
    p.jump(BPF_JMP | BPF_JSET | BPF_K, kAsyncFlag, 0, 1);
    p.stmt(BPF_RET | BPF_K, kDeny);
    p.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    // ioctl(fd, request, arg): the request's low word (the numbers are 32-bit).
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_ioctl, 0, 7);
    p.stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[1]));
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kIoctlSetOwn, 3, 0);
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kIoctlSetPgrp, 2, 0);
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kIoctlAsync, 1, 0);
    p.jump(BPF_JMP | BPF_JEQ | BPF_K, kIoctlSti, 0, 1);
    p.stmt(BPF_RET | BPF_K, kDeny);
    p.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    p.stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

    sock_fprog prog{};
    prog.len = static_cast<unsigned short>(p.code().size());
    prog.filter = p.code().data();
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    // Every thread of the process at once where the kernel can (TSYNC), else this thread and
    // what it starts (the worker installs it before importing, while it has one thread).
    if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) == 0) return true;
    return ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

#else

bool systemCallFilterAvailable() { return false; }
bool restrictSystemCalls() { return false; }

#endif

}  // namespace rig
