//! Reading an input file (or stdin) with a size cap, so that a huge or endless input
//! (`/dev/zero`) is an error once the cap is passed, not a read until memory runs out. The tools
//! (qd-opt, qd-run, qd-translate) read every input through [`read_capped`].

use std::fmt;
use std::io::Read;

/// The cap on an input's size unless a tool's `--max-input-bytes` says otherwise: 1 GiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 1 << 30;

/// Why an input could not be read.
#[derive(Debug)]
pub enum InputError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The input has more than `cap` bytes (reading stopped after `cap + 1`).
    TooLarge { cap: u64 },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => write!(f, "{e}"),
            InputError::TooLarge { cap } => write!(
                f,
                "input is larger than {cap} bytes, the input size cap (raise it with \
                 --max-input-bytes)"
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// All of `reader`, or [`InputError::TooLarge`] as soon as it yields more than `cap` bytes: at
/// most `cap + 1` bytes are read.
pub fn read_capped(reader: impl Read, cap: u64) -> Result<Vec<u8>, InputError> {
    let mut out = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(InputError::Io)?;
    if out.len() as u64 > cap {
        return Err(InputError::TooLarge { cap });
    }
    Ok(out)
}

/// The file at `path` (stdin for `-`), read with [`read_capped`]. A regular file whose size is
/// already known to pass the cap is refused without reading it.
pub fn read_path_capped(path: &str, cap: u64) -> Result<Vec<u8>, InputError> {
    if path == "-" {
        return read_capped(std::io::stdin().lock(), cap);
    }
    let file = std::fs::File::open(path).map_err(InputError::Io)?;
    if let Ok(meta) = file.metadata() {
        if meta.is_file() && meta.len() > cap {
            return Err(InputError::TooLarge { cap });
        }
    }
    read_capped(file, cap)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_cap() {
        assert_eq!(read_capped(&b"abcd"[..], 4).unwrap(), b"abcd");
        assert_eq!(read_capped(&b""[..], 0).unwrap(), b"");
        let err = read_capped(&b"abcde"[..], 4).unwrap_err();
        assert!(matches!(err, InputError::TooLarge { cap: 4 }), "{err}");
        assert!(err.to_string().contains("larger than 4 bytes"), "{err}");
    }

    #[test]
    fn an_endless_reader_stops_after_the_cap() {
        // std::io::repeat never ends: only the cap stops the read.
        let err = read_capped(std::io::repeat(0), 1000).unwrap_err();
        assert!(matches!(err, InputError::TooLarge { cap: 1000 }));
    }

    #[test]
    fn files_are_checked_by_size_and_missing_ones_are_io_errors() {
        let dir = std::env::temp_dir().join(format!("qd-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, b"0123456789").unwrap();
        let p = f.to_str().unwrap();
        assert_eq!(read_path_capped(p, 10).unwrap().len(), 10);
        assert!(matches!(
            read_path_capped(p, 9),
            Err(InputError::TooLarge { cap: 9 })
        ));
        let missing = dir.join("missing.txt");
        assert!(matches!(
            read_path_capped(missing.to_str().unwrap(), 9),
            Err(InputError::Io(_))
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
