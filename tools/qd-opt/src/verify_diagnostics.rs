//! `--verify-diagnostics`, as mlir-opt 22's (mlir/lib/IR/Diagnostics.cpp): the diagnostics a
//! chunk emits must be exactly those its directives expect. A directive is whatever matches, on
//! one line, `expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))?
//! *{{(.*)}}$`; anything else (prose mentioning `expected-*`, `@ +1`) is ignored, as upstream.
//! `@+N`/`@-N` are relative lines, `@above`/`@below` the nearest line that is not a directive,
//! `@unknown` a diagnostic without a file location; without `@`, the directive's own line. The
//! message must contain the text; with `-re`, the `{{...}}` blocks inside it are regular
//! expressions (the rest literal).

use crate::diag_regex::{escape, Regex};
use qd_ir::{Diagnostic, Severity};

/// What a diagnostic's message must contain.
#[derive(Debug)]
pub enum Pattern {
    Text(String),
    Regex(Regex),
}

impl Pattern {
    fn matches(&self, message: &str) -> bool {
        match self {
            Pattern::Text(t) => message.contains(t.as_str()),
            Pattern::Regex(r) => r.is_match(message),
        }
    }
}

/// Where an expected diagnostic must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A 1-based line of this file (one before line 1 never matches).
    Line(usize),
    /// A location that is not in this file (`@unknown`).
    Unknown,
}

#[derive(Debug)]
pub struct Expected {
    pub severity: Severity,
    pub target: Target,
    /// The text between `{{` and the last `}}`, as written.
    pub text: String,
    pub pattern: Pattern,
    /// Where the directive itself is (line, column of `expected-`), for "was not produced".
    pub at: (usize, usize),
    pub matched: bool,
}

/// A directive found on a line: severity, `-re`, designator, message, column of `expected-`.
struct Directive<'a> {
    severity: Severity,
    regex: bool,
    designator: Option<&'a str>,
    message: &'a str,
    col: usize,
}

/// The leftmost match of upstream's directive pattern in `line` (right-trimmed), if any.
fn find_directive(line: &str) -> Option<Directive<'_>> {
    let line = line.trim_end();
    let body = line.strip_suffix("}}")?;
    for (start, _) in line.match_indices("expected-") {
        let rest = &line[start + "expected-".len()..];
        let Some((severity, kind_len)) = [
            ("error", Severity::Error),
            ("note", Severity::Note),
            ("remark", Severity::Remark),
            ("warning", Severity::Warning),
        ]
        .iter()
        .find(|(k, _)| rest.starts_with(k))
        .map(|(k, s)| (*s, k.len())) else {
            continue;
        };
        let mut rest = &rest[kind_len..];
        let regex = rest.starts_with("-re");
        if regex {
            rest = &rest[3..];
        }
        rest = rest.trim_start_matches(' ');
        let mut designator = None;
        if let Some(d) = rest.strip_prefix('@') {
            let len = if let Some(n) = d.strip_prefix(['+', '-']) {
                let digits = n.bytes().take_while(u8::is_ascii_digit).count();
                (digits > 0).then_some(1 + digits)
            } else {
                ["above", "below", "unknown"]
                    .iter()
                    .find(|w| d.starts_with(*w))
                    .map(|w| w.len())
            };
            // A bad designator leaves `@` where `{{` must be: no match at this occurrence.
            let Some(len) = len else { continue };
            designator = Some(&d[..len]);
            rest = &d[len..];
        }
        rest = rest.trim_start_matches(' ');
        let Some(open) = rest.strip_prefix("{{") else {
            continue;
        };
        // The message runs to the `}}` that ends the line (upstream's greedy `(.*)}}$`).
        let msg_start = line.len() - open.len();
        if msg_start > body.len() {
            continue;
        }
        return Some(Directive {
            severity,
            regex,
            designator,
            message: &line[msg_start..body.len()],
            col: start + 1,
        });
    }
    None
}

/// upstream's computeRegex: `{{...}}` blocks are expressions, the rest is literal.
fn compile(message: &str) -> Result<Regex, String> {
    let mut re = String::new();
    let mut rest = message;
    while let Some(open) = rest.find("{{") {
        re.push_str(&escape(&rest[..open]));
        rest = &rest[open + 2..];
        let close = rest
            .find("}}")
            .ok_or("found start of regex with no end '}}'")?;
        let block = &rest[..close];
        Regex::new(block).map_err(|e| format!("invalid regex: {e}"))?;
        re.push('(');
        re.push_str(block);
        re.push(')');
        rest = &rest[close + 2..];
    }
    re.push_str(&escape(rest));
    Regex::new(&re).map_err(|e| format!("invalid regex: {e}"))
}

/// Collects the directives of a chunk. A `-re` directive whose expression does not compile is
/// an error (line, col, message); everything else that is not a directive is ignored.
pub fn parse_expectations(source: &str) -> Result<Vec<Expected>, (usize, usize, String)> {
    let mut out: Vec<Expected> = Vec::new();
    let mut last_plain_line = 1;
    let mut below: Vec<usize> = Vec::new();
    for (idx, line) in source.split('\n').enumerate() {
        let line_no = idx + 1;
        let Some(d) = find_directive(line) else {
            for i in below.drain(..) {
                out[i].target = Target::Line(line_no);
            }
            last_plain_line = line_no;
            continue;
        };
        let pattern = if d.regex {
            Pattern::Regex(compile(d.message).map_err(|m| (line_no, d.col, m))?)
        } else {
            Pattern::Text(d.message.to_string())
        };
        let target = match d.designator {
            None => Target::Line(line_no),
            Some("above") => Target::Line(last_plain_line),
            // Resolved at the next line that is not a directive (else its own line).
            Some("below") => {
                below.push(out.len());
                Target::Line(line_no)
            }
            Some("unknown") => Target::Unknown,
            Some(rel) => {
                let n: usize = rel[1..].parse().unwrap_or(usize::MAX);
                Target::Line(if rel.starts_with('+') {
                    line_no.saturating_add(n)
                } else {
                    line_no.saturating_sub(n)
                })
            }
        };
        out.push(Expected {
            severity: d.severity,
            target,
            text: d.message.to_string(),
            pattern,
            at: (line_no, d.col),
            matched: false,
        });
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
        let target = loc.map_or(Target::Unknown, |(line, _)| Target::Line(line));
        let found = expected.iter_mut().find(|e| {
            !e.matched
                && e.severity == d.severity
                && e.target == target
                && e.pattern.matches(&d.message)
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

    fn lines(src: &str) -> Vec<(Severity, Target, String)> {
        parse_expectations(src)
            .unwrap()
            .into_iter()
            .map(|e| (e.severity, e.target, e.text))
            .collect()
    }

    #[test]
    fn designators() {
        let src = "a\n// expected-error@+1 {{boom}}\nb\nc // expected-warning {{w}}\n// expected-note@-3 {{n}}\n// expected-error@above {{up}}\n";
        let e = lines(src);
        assert_eq!(e.len(), 4);
        assert_eq!(e[0], (Severity::Error, Target::Line(3), "boom".into()));
        assert_eq!((e[1].0, e[1].1), (Severity::Warning, Target::Line(4)));
        assert_eq!((e[2].0, e[2].1), (Severity::Note, Target::Line(2)));
        // As upstream, a code line that carries a directive is a directive line: @above skips it.
        assert_eq!(e[3].1, Target::Line(3));
    }

    #[test]
    fn spacing_variants_mlir_opt_accepts() {
        // Any spaces before `@` and before `{{`, none after `@`.
        for d in [
            "expected-error@+1 {{m}}",
            "expected-error @+1 {{m}}",
            "expected-error  @+1  {{m}}",
            "expected-error@+1{{m}}",
        ] {
            assert_eq!(
                lines(&format!("// {d}\nx\n")),
                [(Severity::Error, Target::Line(2), "m".to_string())],
                "{d}"
            );
        }
        let e = lines("x\n// expected-error @below {{b}}\n// expected-note @above {{a}}\ny\n");
        assert_eq!((e[0].1, e[1].1), (Target::Line(4), Target::Line(1)));
        assert_eq!(
            lines("// expected-remark@unknown {{u}}")[0].1,
            Target::Unknown
        );
        // The message runs to the `}}` that ends the line.
        assert_eq!(lines("// expected-error {{a}} {{b}}")[0].2, "a}} {{b");
    }

    #[test]
    fn text_that_is_not_a_directive_is_ignored() {
        for src in [
            "// expected-error@ +1 {{a}}",
            "// expected-error@+x {{a}}",
            "// expected-error {{a",
            "// expected-error a",
            "// expected-bogus {{a}}",
            "// every expected-* text is checked",
            "// expected-error {{a}} trailing",
        ] {
            assert!(lines(src).is_empty(), "{src}");
        }
        // A relative line before the file's first never matches (it is still expected).
        assert_eq!(lines("// expected-error@-5 {{a}}")[0].1, Target::Line(0));
    }

    #[test]
    fn regex_directives() {
        let e = parse_expectations("// expected-error-re @+1 {{must be {{.*}}-like}}\n").unwrap();
        assert!(e[0]
            .pattern
            .matches("operand #0 must be signless-integer-like, got"));
        assert!(!e[0].pattern.matches("must be -lik"));
        // The literal part is not a regex.
        let e = parse_expectations("// expected-error-re {{a.b {{[0-9]+}}}}\n").unwrap();
        assert!(e[0].pattern.matches("x a.b 42") && !e[0].pattern.matches("axb 42"));
        let bad = parse_expectations("x\n// expected-error-re {{a {{(}}}}\n").unwrap_err();
        assert_eq!((bad.0, bad.1), (2, 4));
        assert!(bad.2.starts_with("invalid regex"), "{}", bad.2);
    }

    #[test]
    fn unknown_locations_match_only_unknown_expectations() {
        let mut e = parse_expectations("// expected-error@unknown {{u}}\n").unwrap();
        let loc = qd_ir::Context::new().unknown_loc();
        let d = Diagnostic::error(loc, "u here");
        assert!(check(&mut e, &[d], &|_| None).is_empty());
        let mut e = parse_expectations("// expected-error@unknown {{u}}\n").unwrap();
        let d = Diagnostic::error(loc, "u here");
        assert_eq!(check(&mut e, &[d], &|_| Some((1, 1))).len(), 2);
    }
}
