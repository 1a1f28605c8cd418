//! `--split-input-file`, as mlir-opt 22's `splitAndProcessBuffer` (mlir/lib/Support/
//! ToolUtilities.cpp): the input is cut at every occurrence of `// ---` (anywhere in a line)
//! that is followed by `--` and one more character other than `0` (upstream's check for "no
//! further dash" compares with '0'); any other occurrence is a near miss (a warning at the
//! character after `// ---`) and stays in the chunk. `// // -----` therefore splits, and the
//! text after the marker on its line starts the next chunk. Each chunk is padded with the
//! newlines and spaces that precede it, so that diagnostics keep the whole file's lines and
//! columns.

/// The marker less its last two dashes: what the input is cut at.
const PREFIX: &str = "// ---";
/// What must follow PREFIX for a split.
const SUFFIX: &str = "--";

/// The chunks of `source` (each padded to its position in the file) and the 1-based
/// (line, column) of every near miss.
pub fn split_input(source: &str) -> (Vec<String>, Vec<(usize, usize)>) {
    let mut raw = Vec::new();
    let mut start = 0;
    for (pos, _) in source.match_indices(PREFIX) {
        raw.push(start..pos);
        start = pos + PREFIX.len();
    }
    raw.push(start..source.len());
    // A sliding window over the pieces, as upstream: a piece that starts with the suffix (and
    // one more character that is not '0') ends the chunk before it; otherwise the window grows
    // over the prefix and the piece. An empty window takes the next piece whole.
    let mut ranges = Vec::new();
    let mut near_misses = Vec::new();
    let mut prev = 0..0;
    for piece in raw {
        if prev.is_empty() {
            prev = piece;
            continue;
        }
        let text = &source[piece.clone()];
        let split =
            text.starts_with(SUFFIX) && text.len() > SUFFIX.len() && text.as_bytes()[2] != b'0';
        if split {
            ranges.push(prev);
            prev = piece.start + SUFFIX.len()..piece.end;
        } else {
            near_misses.push(line_col(source, piece.start));
            prev = prev.start..piece.end;
        }
    }
    if !prev.is_empty() {
        ranges.push(prev);
    }
    let chunks = ranges
        .into_iter()
        .map(|r| {
            let (line, col) = line_col(source, r.start);
            let mut chunk = String::with_capacity(line + col + r.len());
            chunk.extend(std::iter::repeat_n('\n', line - 1));
            chunk.extend(std::iter::repeat_n(' ', col - 1));
            chunk.push_str(&source[r]);
            chunk
        })
        .collect();
    (chunks, near_misses)
}

/// 1-based line and byte column of `offset`.
fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let before = &source.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, offset - line_start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(s: &str) -> Vec<String> {
        split_input(s).0
    }

    #[test]
    fn keeps_line_numbers_and_columns() {
        assert_eq!(
            chunks("a\n// -----\nb\nc\n// -----\nd"),
            vec!["a\n", "\n        \nb\nc\n", "\n\n\n\n        \nd"]
        );
        // The rest of the marker's line starts the next chunk, at its own column.
        assert_eq!(chunks("a\n// -----x\n"), vec!["a\n", "\n        x\n"]);
    }

    #[test]
    fn no_separator_is_one_chunk() {
        assert_eq!(split_input("x\ny\n"), (vec!["x\ny\n".to_string()], vec![]));
    }

    #[test]
    fn the_marker_splits_anywhere_in_a_line() {
        // As mlir-opt 22: `// // -----` and an indented marker split; `//-----` does not.
        assert_eq!(chunks("a\n// // -----\nb\n").len(), 2);
        assert_eq!(chunks("a\n   // -----   \nb\n").len(), 2);
        assert_eq!(chunks("a\n//-----\nb\n").len(), 1);
        // `// ------` splits and leaves a `-` at the start of the next chunk.
        assert_eq!(chunks("a\n// ------\nb\n")[1].trim_start(), "-\nb\n");
    }

    #[test]
    fn near_misses_are_reported_and_kept() {
        let (c, near) = split_input("a\n// ----\nb\n// -----0\nc\n");
        assert_eq!(c, vec!["a\n// ----\nb\n// -----0\nc\n"]);
        assert_eq!(near, vec![(2, 7), (4, 7)]);
        // A marker that ends the file has nothing after its dashes: a near miss too.
        let (c, near) = split_input("a\n// -----");
        assert_eq!((c.len(), near), (1, vec![(2, 7)]));
    }
}
