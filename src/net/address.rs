//! Which addresses a fetched URL may reach. Public unicast only, unless the user allowed private
//! networks (`web.allow_private`, or Hermes' `security.allow_private_urls`); the cloud metadata
//! endpoints stay blocked even then — no legitimate agent fetch needs them, and they hand out
//! credentials. Embedded IPv4 forms (mapped, NAT64, 6to4) are judged by the IPv4 they carry.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Host names that reach cloud instance metadata whatever the setting.
const METADATA_HOSTS: &[&str] = &[
    "metadata.google.internal",
    "metadata.goog",
    "metadata.azure.com",
    "instance-data",
    "instance-data.ec2.internal",
];

/// Whether `host` (a name, lowercase or not) is a metadata endpoint that is never fetched.
pub fn is_always_blocked_host(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    METADATA_HOSTS.contains(&host.as_str())
}

/// Why `ip` may not be fetched, or `None` when it may.
pub fn blocked_reason(ip: IpAddr, allow_private: bool) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4, allow_private),
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => v4_reason(v4, allow_private),
            None => v6_reason(v6, allow_private),
        },
    }
}

fn v4_reason(ip: Ipv4Addr, allow_private: bool) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    // Metadata services (AWS/GCP/Azure 169.254.169.254, Alibaba 100.100.100.200, AWS IPv6 is
    // handled below): blocked even when private networks are allowed.
    if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        return Some("a cloud metadata address");
    }
    let reason = if ip.is_unspecified() || a == 0 {
        "an unspecified address"
    } else if ip.is_loopback() {
        "a loopback address"
    } else if ip.is_private() {
        "a private network address"
    } else if ip.is_link_local() {
        "a link-local address"
    } else if a == 100 && (64..128).contains(&b) {
        "a carrier-grade NAT address"
    } else if a == 198 && (b == 18 || b == 19) {
        "a benchmarking network address"
    } else if a == 192 && b == 0 && c == 0 {
        "an IETF protocol address"
    } else if ip.is_multicast() || a >= 240 || ip.is_broadcast() {
        "a multicast or reserved address"
    } else if ip.is_documentation() {
        "a documentation address"
    } else {
        return None;
    };
    // Loopback, unspecified, multicast and reserved are never a web page, setting or not.
    let always = matches!(
        reason,
        "an unspecified address" | "a multicast or reserved address" | "a documentation address"
    );
    (always || !allow_private).then_some(reason)
}

fn v6_reason(ip: Ipv6Addr, allow_private: bool) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        return Some("a cloud metadata address");
    }
    let reason = if ip.is_unspecified() {
        return Some("an unspecified address");
    } else if ip.is_multicast() {
        return Some("a multicast address");
    } else if ip.is_loopback() {
        "a loopback address"
    } else if first & 0xfe00 == 0xfc00 {
        "a unique-local (private) address"
    } else if first & 0xffc0 == 0xfe80 || first & 0xffc0 == 0xfec0 {
        "a link-local address"
    } else if first == 0x2001 && ip.segments()[1] == 0x0db8 {
        return Some("a documentation address");
    } else {
        return None;
    };
    (!allow_private).then_some(reason)
}

/// The IPv4 address an IPv6 address carries: IPv4-mapped `::ffff:a.b.c.d`, the deprecated
/// IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96` and 6to4 `2002:AABB:CCDD::/48`.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    let s = ip.segments();
    let from = |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if s[..6] == [0, 0, 0, 0, 0, 0] && !(s[6] == 0 && s[7] <= 1) {
        return Some(from(s[6], s[7]));
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        return Some(from(s[6], s[7]));
    }
    if s[0] == 0x2002 {
        return Some(from(s[1], s[2]));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocked(text: &str, allow_private: bool) -> bool {
        blocked_reason(text.parse().unwrap(), allow_private).is_some()
    }

    #[test]
    fn private_and_local_targets_are_refused_by_default() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.1.1",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd12::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
            "::127.0.0.1",
        ] {
            assert!(blocked(ip, false), "{ip}");
        }
        for ip in ["93.184.216.34", "1.1.1.1", "2606:4700::1111", "::ffff:8.8.8.8"] {
            assert!(!blocked(ip, false), "{ip}");
        }
    }

    #[test]
    fn allowing_private_networks_never_opens_metadata_or_reserved_ranges() {
        assert!(!blocked("10.1.2.3", true));
        assert!(!blocked("127.0.0.1", true));
        assert!(!blocked("::1", true));
        for ip in [
            "169.254.169.254",
            "::ffff:169.254.169.254",
            "fd00:ec2::254",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
        ] {
            assert!(blocked(ip, true), "{ip}");
        }
        assert!(is_always_blocked_host("Metadata.Google.Internal."));
        assert!(!is_always_blocked_host("example.com"));
    }
}
