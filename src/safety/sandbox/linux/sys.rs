//! The raw system calls the sandboxed child makes (`child.rs`), each async-signal-safe: no
//! allocation, no lock, only syscalls on data prepared before the fork.

use std::io;
use std::os::fd::RawFd;

/// Root keeps its capabilities across `exec`; an empty bounding set and capability sets make
/// the command an ordinary process that cannot lift its own restrictions.
pub(super) unsafe fn drop_capabilities() -> io::Result<()> {
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

/// A fresh network namespace has only `lo`, and it is down: bring it up so a command's own
/// servers and tests on 127.0.0.1 work.
pub(super) unsafe fn loopback_up() -> io::Result<()> {
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
pub(super) unsafe fn fork() -> io::Result<libc::pid_t> {
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
pub(super) unsafe fn close_all_but(keep: RawFd) {
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

pub(super) unsafe fn write_file(path: *const libc::c_char, bytes: &[u8]) -> io::Result<()> {
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

pub(super) fn check(rc: libc::c_int) -> io::Result<()> {
    match rc {
        -1 => Err(io::Error::last_os_error()),
        _ => Ok(()),
    }
}

pub(super) fn errno() -> libc::c_int {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}
