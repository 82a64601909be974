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
