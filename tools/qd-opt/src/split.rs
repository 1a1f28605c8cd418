//! `--split-input-file`: chunks separated by `// -----` lines. Each chunk is padded with the
//! newlines that precede it so that diagnostics keep the line numbers of the whole file.

/// The chunks of `source`, each as (text padded to its original line numbers, first line number).
pub fn split_input(source: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut cur = String::new();
    let mut line_no = 0usize;
    let mut chunk_start = 0usize;
    for line in source.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']).trim() == "// -----" {
            chunks.push(std::mem::take(&mut cur));
            line_no += 1;
            chunk_start = line_no;
            continue;
        }
        if cur.is_empty() {
            cur.push_str(&"\n".repeat(chunk_start));
        }
        cur.push_str(line);
        line_no += 1;
    }
    chunks.push(cur);
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_line_numbers() {
        let c = split_input("a\n// -----\nb\nc\n// -----\nd");
        assert_eq!(c, vec!["a\n", "\n\nb\nc\n", "\n\n\n\n\nd"]);
    }

    #[test]
    fn no_separator_is_one_chunk() {
        assert_eq!(split_input("x\ny\n"), vec!["x\ny\n"]);
    }
}
