//! `--verify-diagnostics`: the diagnostics a chunk emits must be exactly those its comments expect:
//! `// expected-error {{msg}}` (same line), `@+N` / `@-N` (relative line), `@above` / `@below`
//! (the nearest line that is not an expectation). The message only has to contain the text.

use qd_ir::{Diagnostic, Severity};

#[derive(Debug, Clone)]
pub struct Expected {
    pub severity: Severity,
    /// 1-based line the diagnostic must be on.
    pub line: usize,
    pub text: String,
    /// Where the comment itself is (line, column), for "was not produced" errors.
    pub at: (usize, usize),
    pub matched: bool,
}

/// Collects the expectations of a chunk. Malformed expectations are errors (line, col, message).
pub fn parse_expectations(source: &str) -> Result<Vec<Expected>, (usize, usize, String)> {
    let lines: Vec<&str> = source.lines().collect();
    // A line that holds only an expectation comment (not code with a trailing one).
    let is_expectation = |l: &str| l.trim_start().starts_with("//") && l.contains("expected-");
    let mut out = Vec::new();
    for (idx, line) in lines.iter().enumerate() {
        let line_no = idx + 1;
        let mut rest_start = 0;
        while let Some(pos) = line[rest_start..].find("expected-") {
            let start = rest_start + pos;
            let after = &line[start + "expected-".len()..];
            let (severity, kw_len) = [
                ("error", Severity::Error),
                ("warning", Severity::Warning),
                ("note", Severity::Note),
                ("remark", Severity::Remark),
            ]
            .iter()
            .find(|(kw, _)| after.starts_with(kw))
            .map(|(kw, s)| (*s, kw.len()))
            .ok_or((
                line_no,
                start + 1,
                "unknown expectation kind (want expected-error, -warning, -note or -remark)"
                    .to_string(),
            ))?;
            let mut tail = &after[kw_len..];
            let mut target = line_no;
            if let Some(d) = tail.strip_prefix('@') {
                let end = d
                    .find(|c: char| c.is_whitespace() || c == '{')
                    .unwrap_or(d.len());
                let desig = &d[..end];
                tail = &d[end..];
                target = match desig {
                    "above" => (1..line_no)
                        .rev()
                        .find(|&l| !is_expectation(lines[l - 1]))
                        .ok_or((line_no, start + 1, "no line above for @above".to_string()))?,
                    "below" => (line_no + 1..=lines.len())
                        .find(|&l| !is_expectation(lines[l - 1]))
                        .ok_or((line_no, start + 1, "no line below for @below".to_string()))?,
                    _ => {
                        let bad = || {
                            (
                                line_no,
                                start + 1,
                                format!("invalid line designator '@{desig}'"),
                            )
                        };
                        let (sign, num) = desig.split_at(desig.len().min(1));
                        let n: usize = num.parse().map_err(|_| bad())?;
                        match sign {
                            "+" => line_no + n,
                            "-" => line_no.checked_sub(n).filter(|&l| l >= 1).ok_or_else(bad)?,
                            _ => return Err(bad()),
                        }
                    }
                };
            }
            let tail_trim = tail.trim_start();
            let open = tail_trim.strip_prefix("{{").ok_or((
                line_no,
                start + 1,
                "expected '{{' after the expectation".to_string(),
            ))?;
            let close = open.find("}}").ok_or((
                line_no,
                start + 1,
                "expected '}}' to close the expected message".to_string(),
            ))?;
            out.push(Expected {
                severity,
                line: target,
                text: open[..close].to_string(),
                at: (line_no, start + 1),
                matched: false,
            });
            rest_start = line.len() - (open.len() - close - 2);
        }
    }
    Ok(out)
}

/// A problem found by the check: location (line, col) in the checked file and the message.
pub struct Mismatch {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// Matches emitted diagnostics (with their notes) against the expectations; returns the mismatches.
/// `loc_of` gives a diagnostic's (line, col) in this file, or None when it points elsewhere.
pub fn check(
    expected: &mut [Expected],
    diags: &[Diagnostic],
    loc_of: &dyn Fn(&Diagnostic) -> Option<(usize, usize)>,
) -> Vec<Mismatch> {
    // Notes are checked only when the file expects some, as an error's notes are often incidental.
    let check_notes = expected.iter().any(|e| e.severity == Severity::Note);
    let mut flat = Vec::new();
    for d in diags {
        flat.push(d);
        if check_notes {
            flat.extend(d.notes.iter());
        }
    }
    let mut out = Vec::new();
    for d in flat {
        let loc = loc_of(d);
        let found = loc.and_then(|(line, _)| {
            expected.iter_mut().find(|e| {
                !e.matched
                    && e.severity == d.severity
                    && e.line == line
                    && d.message.contains(&e.text)
            })
        });
        match found {
            Some(e) => e.matched = true,
            None => {
                let (line, col) = loc.unwrap_or((0, 0));
                out.push(Mismatch {
                    line,
                    col,
                    message: format!("unexpected {}: {}", d.severity.as_str(), d.message),
                });
            }
        }
    }
    for e in expected.iter().filter(|e| !e.matched) {
        out.push(Mismatch {
            line: e.at.0,
            col: e.at.1,
            message: format!(
                "expected {} \"{}\" was not produced",
                e.severity.as_str(),
                e.text
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn designators() {
        let src = "a\n// expected-error@+1 {{boom}}\nb\nc // expected-warning {{w}}\n// expected-note@-3 {{n}}\n// expected-error@above {{up}}\n";
        let e = parse_expectations(src).unwrap();
        assert_eq!(e.len(), 4);
        assert_eq!(
            (e[0].severity, e[0].line, e[0].text.as_str()),
            (Severity::Error, 3, "boom")
        );
        assert_eq!((e[1].severity, e[1].line), (Severity::Warning, 4));
        assert_eq!((e[2].severity, e[2].line), (Severity::Note, 2));
        assert_eq!(e[3].line, 4);
    }

    #[test]
    fn malformed_expectations_are_errors() {
        assert!(parse_expectations("// expected-error@+x {{a}}").is_err());
        assert!(parse_expectations("// expected-error {{a").is_err());
        assert!(parse_expectations("// expected-error a").is_err());
        assert!(parse_expectations("// expected-bogus {{a}}").is_err());
        assert!(parse_expectations("// expected-error@-5 {{a}}").is_err());
    }
}
