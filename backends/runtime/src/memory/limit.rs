//! [`MemoryLimit`]: how many bytes a program's fields, adjoints and ndarrays may take together.
//! Anything past it is refused before it is allocated, as an error naming what asked and how
//! many bytes: allocations succeed under overcommit, and touching memory the machine does not
//! have gets the process killed later (the OOM killer) instead of a message.
//!
//! `auto` (the default) is what the machine can give when the program is created: MemAvailable
//! plus SwapFree from /proc/meminfo, capped by the cgroup's room (cgroup v2 `memory.max` less
//! `memory.current`) where there is one, less [`AUTO_RESERVE_BYTES`] kept for everything else
//! the process allocates (the IR, compiled code, printing). Where /proc/meminfo cannot be read
//! (not Linux), `auto` sets no limit.

use std::fmt;
use std::str::FromStr;

/// Kept out of an `auto` limit for the rest of the process: 64 MiB.
pub const AUTO_RESERVE_BYTES: u64 = 64 << 20;

/// The limit on a program's memory (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum MemoryLimit {
    /// What the machine can give when the program is created, less a reserve.
    #[default]
    Auto,
    /// At most this many bytes.
    Bytes(u64),
}

impl MemoryLimit {
    /// The limit in bytes now; None when `auto` cannot tell (no /proc/meminfo).
    pub fn resolve(self) -> Option<u64> {
        match self {
            MemoryLimit::Bytes(n) => Some(n),
            MemoryLimit::Auto => available_bytes().map(|b| b.saturating_sub(AUTO_RESERVE_BYTES)),
        }
    }

    /// How the limit was set, for error messages.
    pub fn describe(self) -> &'static str {
        match self {
            MemoryLimit::Auto => "auto: the memory available when the program was created",
            MemoryLimit::Bytes(_) => "as set",
        }
    }
}

/// `auto`, or a byte count with an optional binary suffix (`4096`, `512MiB`, `8GiB`; `K`, `M`,
/// `G`, `T` also mean KiB, MiB, GiB, TiB).
impl FromStr for MemoryLimit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("auto") {
            return Ok(MemoryLimit::Auto);
        }
        let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (num, suffix) = t.split_at(digits);
        let shift = match suffix.trim() {
            "" | "B" => 0,
            "K" | "KiB" => 10,
            "M" | "MiB" => 20,
            "G" | "GiB" => 30,
            "T" | "TiB" => 40,
            _ => {
                return Err(format!(
                    "'{s}' is not a byte count (as 4096, 512MiB, 8GiB) or auto"
                ))
            }
        };
        let n: u64 = num
            .parse()
            .map_err(|_| format!("'{s}' is not a byte count (as 4096, 512MiB, 8GiB) or auto"))?;
        n.checked_mul(1 << shift)
            .map(MemoryLimit::Bytes)
            .ok_or_else(|| format!("'{s}' is more than {} bytes", u64::MAX))
    }
}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryLimit::Auto => write!(f, "auto"),
            MemoryLimit::Bytes(n) => write!(f, "{n}"),
        }
    }
}

/// MemAvailable + SwapFree, capped by the cgroup's room; None without /proc/meminfo.
pub fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let machine = meminfo_available(&meminfo)?;
    Some(match cgroup_room() {
        Some(room) => machine.min(room),
        None => machine,
    })
}

/// MemAvailable + SwapFree (kB in the file) in bytes.
fn meminfo_available(meminfo: &str) -> Option<u64> {
    let kb = |key: &str| -> Option<u64> {
        meminfo
            .lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
            .and_then(|v| v.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
    };
    let avail = kb("MemAvailable")?;
    let swap = kb("SwapFree").unwrap_or(0);
    Some(avail.saturating_add(swap).saturating_mul(1024))
}

/// The room left under this process's cgroup v2 memory limit, when it has one.
fn cgroup_room() -> Option<u64> {
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    // cgroup v2: the one line "0::/path".
    let path = cgroup.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = format!("/sys/fs/cgroup{}", path.trim_end());
    let max = std::fs::read_to_string(format!("{dir}/memory.max")).ok()?;
    let max: u64 = max.trim().parse().ok()?; // "max": no limit
    let current: u64 = std::fs::read_to_string(format!("{dir}/memory.current"))
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(max.saturating_sub(current))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counts_suffixes_and_auto() {
        assert_eq!("auto".parse(), Ok(MemoryLimit::Auto));
        assert_eq!("4096".parse(), Ok(MemoryLimit::Bytes(4096)));
        assert_eq!("512MiB".parse(), Ok(MemoryLimit::Bytes(512 << 20)));
        assert_eq!("8G".parse(), Ok(MemoryLimit::Bytes(8 << 30)));
        assert_eq!("0".parse(), Ok(MemoryLimit::Bytes(0)));
        for bad in ["", "-1", "1.5G", "12 apples", "G"] {
            assert!(bad.parse::<MemoryLimit>().is_err(), "{bad}");
        }
        assert!("18446744073709551615T"
            .parse::<MemoryLimit>()
            .unwrap_err()
            .contains("more than"));
    }

    #[test]
    fn meminfo_sums_available_and_swap() {
        let text = "MemTotal: 100 kB\nMemFree: 10 kB\nMemAvailable:   50 kB\nSwapFree: 7 kB\n";
        assert_eq!(meminfo_available(text), Some(57 * 1024));
        assert_eq!(meminfo_available("MemAvailable: 3 kB\n"), Some(3 * 1024));
        assert_eq!(meminfo_available("MemTotal: 3 kB\n"), None);
    }

    #[test]
    fn auto_resolves_on_linux() {
        if std::path::Path::new("/proc/meminfo").exists() {
            let n = MemoryLimit::Auto.resolve().unwrap();
            assert!(n > 0, "no memory available?");
        }
        assert_eq!(MemoryLimit::Bytes(5).resolve(), Some(5));
    }
}
