//! What runs in the forked child between `fork` and `exec`: entering the namespaces, arranging
//! the mounts, standing in as init of the PID namespace, and restricting the command with
//! Landlock, seccomp and (for root) an empty capability set.
//!
//! It runs in the child of a multi-threaded parent, where only async-signal-safe work is
//! allowed: raw system calls on data the parent prepared (C strings, the BPF program, the
//! ruleset descriptor). Nothing here allocates, locks or formats. Forks are raw `clone` calls,
//! so no `atfork` handler (glibc's takes the allocator's locks, which another thread of the
//! parent may have held at fork time) runs.
//!
//! With namespaces there are three processes:
//! - the *keeper* (std's child, in our PID namespace and the command's process group) unshares
//!   the namespaces, writes the id maps, does the mounts, forks the init and waits for it, then
//!   exits the way the command did. It ignores SIGTERM/SIGINT/SIGHUP/SIGQUIT, so a group signal
//!   reaches the command and not it; SIGKILL ends it, and its death ends the sandbox.
//! - the *init* (PID 1 of the new namespace) mounts `/proc`, forks the command, reaps orphans,
//!   reports the command's wait status to the keeper through a pipe and exits when the command
//!   does — which makes the kernel kill everything left in the namespace (`setsid` children
//!   and daemons included). Its parent-death signal ties it to the keeper.
//! - the *command* restricts itself and returns to std, which execs it. Std's error pipe tells
//!   the parent whether that exec happened; keeper and init close their copies first.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;

/// How a namespaced command is set up (built in the parent by `mounts.rs`).
pub(super) struct NamespacePlan {
    /// `CLONE_NEW*` flags for `unshare`.
    pub flags: libc::c_int,
    /// `/proc/self/uid_map` and `gid_map` contents: our own ids mapped to themselves.
    pub uid_map: CString,
    pub gid_map: CString,
    pub mounts: Vec<MountStep>,
    /// Bring `lo` up (a fresh network namespace has it down).
    pub loopback: bool,
}

/// One step of the mount setup, a raw call with prepared arguments.
pub(super) enum MountStep {
    /// `mount(2)`. `missing_ok`: a target that vanished since the parent looked is skipped
    /// (any other failure fails the spawn: the sandbox fails closed).
    Mount {
        source: Option<CString>,
        target: CString,
        fstype: Option<CString>,
        flags: libc::c_ulong,
        data: Option<CString>,
        missing_ok: bool,
    },
    /// `mkdir(2)` of a mount point inside a fresh tmpfs (an existing one is fine).
    Mkdir { path: CString },
    /// `open_tree(OPEN_TREE_CLONE)`: a detached copy of the mounts at `path`, kept in `slot`
    /// until [`MountStep::Place`] — how a path stays visible under a tmpfs that covers it.
    Stash { path: CString, slot: usize },
    /// `move_mount` of the copy in `slot` onto `target`.
    Place { slot: usize, target: CString },
}

/// How many paths one plan may stash (the slots live on the child's stack).
pub(super) const STASH_SLOTS: usize = 16;

const OPEN_TREE_CLONE: libc::c_uint = 1;
const AT_RECURSIVE: libc::c_uint = 0x8000;
const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 0x4;

/// Everything the child needs, prepared by the parent.
pub(super) struct ChildPlan {
    pub namespaces: Option<NamespacePlan>,
    /// The Landlock ruleset descriptor (owned by the `PreparedSandbox`, alive across the spawn).
    pub ruleset: RawFd,
    /// The seccomp program (a `'static` cache in `seccomp.rs`).
    pub seccomp: &'static [seccompiler::sock_filter],
    /// We run as root: drop every capability so the command cannot undo the sandbox.
    pub drop_capabilities: bool,
}

/// The pre-exec hook: returns only in the process that will exec the command.
///
/// # Safety
/// Must only run in a freshly forked child (std's `pre_exec`), with `plan` and the descriptors
/// it names alive.
pub(super) unsafe fn enter(plan: &ChildPlan) -> io::Result<()> {
    // SAFETY: the caller's contract; every step below is a raw syscall.
    unsafe {
        if let Some(namespaces) = &plan.namespaces {
            enter_namespaces(namespaces)?;
        }
        restrict(plan)
    }
}

unsafe fn enter_namespaces(plan: &NamespacePlan) -> io::Result<()> {
    // SAFETY: raw syscalls on prepared, NUL-terminated data.
    unsafe {
        check(libc::unshare(plan.flags))?;
        // Kernels before 3.19 have no setgroups file; the maps below still work there.
        match write_file(c"/proc/self/setgroups".as_ptr(), b"deny") {
            Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {}
            other => other?,
        }
        write_file(c"/proc/self/uid_map".as_ptr(), plan.uid_map.as_bytes())?;
        write_file(c"/proc/self/gid_map".as_ptr(), plan.gid_map.as_bytes())?;
        let mut slots: [RawFd; STASH_SLOTS] = [-1; STASH_SLOTS];
        for step in &plan.mounts {
            step.run(&mut slots)?;
        }
        for fd in slots.into_iter().filter(|fd| *fd >= 0) {
            libc::close(fd);
        }
        if plan.loopback {
            loopback_up()?;
        }
        let mut pipe = [0 as RawFd; 2];
        check(libc::pipe2(pipe.as_mut_ptr(), libc::O_CLOEXEC))?;
        let (status_read, status_write) = (pipe[0], pipe[1]);
        let init_pid = fork()?;
        if init_pid != 0 {
            keeper(init_pid, status_read);
        }
        libc::close(status_read);
        // The init. It dies with the keeper; `getppid` is 0 across the namespace boundary, so
        // the usual race check is not possible — but the keeper only dies of SIGKILL sent to
        // the whole process group, which reaches this process too.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        // Best effort: where a fresh /proc cannot be mounted (a container that masks parts of
        // its own), the host's stays; Landlock's signal scope and ptrace rule still keep the
        // command away from processes outside its sandbox.
        libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        );
        let command = fork()?;
        if command != 0 {
            reap_until(command, status_write);
        }
        libc::close(status_write);
        Ok(())
    }
}

/// The keeper's life after forking the init: wait, then leave the way the command did.
unsafe fn keeper(init: libc::pid_t, status_read: RawFd) -> ! {
    // SAFETY: raw syscalls; the status is read into a local integer.
    unsafe {
        close_all_but(status_read);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
            libc::signal(signal, libc::SIG_IGN);
        }
        let mut init_status: libc::c_int = 0;
        loop {
            let pid = libc::waitpid(init, &mut init_status, 0);
            if pid == init {
                break;
            }
            if pid < 0 && errno() != libc::EINTR {
                libc::_exit(1);
            }
        }
        let mut command_status: libc::c_int = 0;
        let size = std::mem::size_of::<libc::c_int>();
        let read = libc::read(status_read, (&raw mut command_status).cast(), size);
        let status = if read == size as isize {
            command_status
        } else {
            init_status
        };
        leave_like(status)
    }
}

/// Exits with the command's code, or dies of the signal that killed it (no core dump).
unsafe fn leave_like(status: libc::c_int) -> ! {
    // SAFETY: raw syscalls on local data.
    unsafe {
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal);
        }
        libc::_exit(if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            1
        })
    }
}

/// PID 1's loop: reap everything, report the command's status, and leave with it.
unsafe fn reap_until(command: libc::pid_t, status_write: RawFd) -> ! {
    // SAFETY: raw syscalls; the status is written from a local integer.
    unsafe {
        close_all_but(status_write);
        loop {
            let mut status: libc::c_int = 0;
            let pid = libc::waitpid(-1, &mut status, 0);
            if pid == command {
                let size = std::mem::size_of::<libc::c_int>();
                libc::write(status_write, (&raw const status).cast(), size);
                libc::_exit(0);
            }
            if pid < 0 && errno() != libc::EINTR {
                libc::_exit(1);
            }
        }
    }
}

/// The command's own restrictions, in the order the kernel needs them.
unsafe fn restrict(plan: &ChildPlan) -> io::Result<()> {
    // SAFETY: raw syscalls; the BPF program and ruleset were prepared by the parent.
    unsafe {
        // Required by Landlock and seccomp for unprivileged processes, and it keeps set-uid
        // programs from escaping.
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        if plan.drop_capabilities {
            drop_capabilities()?;
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, plan.ruleset, 0u32) != 0 {
            return Err(io::Error::last_os_error());
        }
        let program = libc::sock_fprog {
            len: u16::try_from(plan.seccomp.len()).map_err(|_| io::Error::from_raw_os_error(libc::E2BIG))?,
            filter: plan.seccomp.as_ptr().cast_mut().cast(),
        };
        if libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0u32,
            &raw const program,
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

/// Root keeps its capabilities across `exec`; an empty bounding set and capability sets make
/// the command an ordinary process that cannot lift its own restrictions.
unsafe fn drop_capabilities() -> io::Result<()> {
    #[repr(C)]
    struct Header {
        version: u32,
        pid: libc::c_int,
    }
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Data {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    const VERSION_3: u32 = 0x2008_0522;
    // SAFETY: raw syscalls on local structures of the kernel's layout.
    unsafe {
        for capability in 0..64 {
            // EINVAL past the kernel's last capability; nothing else can fail once we are root.
            libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0);
        }
        libc::prctl(libc::PR_CAP_AMBIENT, libc::PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        let header = Header {
            version: VERSION_3,
            pid: 0,
        };
        let empty = [Data {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        }; 2];
        if libc::syscall(libc::SYS_capset, &raw const header, empty.as_ptr()) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

impl MountStep {
    unsafe fn run(&self, slots: &mut [RawFd; STASH_SLOTS]) -> io::Result<()> {
        let ptr = |s: &Option<CString>| s.as_ref().map_or(std::ptr::null(), |s| s.as_ptr());
        // SAFETY: every pointer is a prepared C string or null.
        unsafe {
            match self {
                MountStep::Mount {
                    source,
                    target,
                    fstype,
                    flags,
                    data,
                    missing_ok,
                } => {
                    let rc = libc::mount(ptr(source), target.as_ptr(), ptr(fstype), *flags, ptr(data).cast());
                    if rc != 0 && !(*missing_ok && errno() == libc::ENOENT) {
                        return Err(io::Error::last_os_error());
                    }
                }
                MountStep::Mkdir { path } => {
                    if libc::mkdir(path.as_ptr(), 0o755) != 0 && errno() != libc::EEXIST {
                        return Err(io::Error::last_os_error());
                    }
                }
                MountStep::Stash { path, slot } => {
                    let flags = OPEN_TREE_CLONE | AT_RECURSIVE | libc::O_CLOEXEC as libc::c_uint;
                    let fd = libc::syscall(libc::SYS_open_tree, libc::AT_FDCWD, path.as_ptr(), flags);
                    if fd < 0 {
                        return Err(io::Error::last_os_error());
                    }
                    slots[*slot] = fd as RawFd;
                }
                MountStep::Place { slot, target } => {
                    let rc = libc::syscall(
                        libc::SYS_move_mount,
                        slots[*slot],
                        c"".as_ptr(),
                        libc::AT_FDCWD,
                        target.as_ptr(),
                        MOVE_MOUNT_F_EMPTY_PATH,
                    );
                    if rc != 0 {
                        return Err(io::Error::last_os_error());
                    }
                }
            }
        }
        Ok(())
    }
}

/// A fresh network namespace has only `lo`, and it is down: bring it up so a command's own
/// servers and tests on 127.0.0.1 work.
unsafe fn loopback_up() -> io::Result<()> {
    // SAFETY: a socket used for two ioctls on a zeroed `ifreq` naming "lo".
    unsafe {
        let socket = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        check(socket)?;
        let mut request: libc::ifreq = std::mem::zeroed();
        request.ifr_name[0] = b'l' as libc::c_char;
        request.ifr_name[1] = b'o' as libc::c_char;
        let result = (|| {
            // `as _`: the request's type differs between C libraries (glibc: c_ulong, musl: c_int).
            check(libc::ioctl(socket, libc::SIOCGIFFLAGS as _, &mut request))?;
            request.ifr_ifru.ifru_flags |= (libc::IFF_UP | libc::IFF_RUNNING) as libc::c_short;
            check(libc::ioctl(socket, libc::SIOCSIFFLAGS as _, &request))
        })();
        libc::close(socket);
        result
    }
}

/// A raw `fork`: `clone` with only SIGCHLD, which runs no `atfork` handler.
unsafe fn fork() -> io::Result<libc::pid_t> {
    // SAFETY: clone without a new stack behaves as fork.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    match pid {
        -1 => Err(io::Error::last_os_error()),
        pid => Ok(pid as libc::pid_t),
    }
}

/// Closes every descriptor but `keep` (stdio, std's error pipe and the ruleset included).
unsafe fn close_all_but(keep: RawFd) {
    // SAFETY: closing descriptors of this (single-threaded) process.
    unsafe {
        let ranges = [(0, keep - 1), (keep + 1, RawFd::MAX)];
        for (first, last) in ranges.into_iter().filter(|(first, last)| first <= last) {
            let (first, last) = (first as libc::c_uint, last as libc::c_uint);
            if libc::syscall(libc::SYS_close_range, first, last, 0u32) != 0 {
                // Kernels before 5.9: close one by one, up to a bound no spawn exceeds.
                for fd in first..last.min(65_536) {
                    libc::close(fd as RawFd);
                }
            }
        }
    }
}

unsafe fn write_file(path: *const libc::c_char, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: `path` is NUL-terminated; `bytes` is a live slice.
    unsafe {
        let fd = libc::open(path, libc::O_WRONLY | libc::O_CLOEXEC);
        check(fd)?;
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let result = match written {
            n if n == bytes.len() as isize => Ok(()),
            -1 => Err(io::Error::last_os_error()),
            _ => Err(io::Error::from_raw_os_error(libc::EIO)),
        };
        libc::close(fd);
        result
    }
}

fn check(rc: libc::c_int) -> io::Result<()> {
    match rc {
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}

fn errno() -> libc::c_int {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}
