//! The textual pass pipeline grammar, as MLIR's:
//!
//! ```text
//! pipeline ::= element (`,` element)*
//! element  ::= op-name `(` pipeline `)`          a nested pass manager anchored on op-name
//!            | pass-name (`{` options `}`)?       a pass
//! ```
//!
//! e.g. `builtin.module(qd.kernel(cse,canonicalize{max-iterations=4}),symbol-dce)`. This module
//! only parses; `manager` resolves names against a registry.

use std::fmt;

/// One parsed element, with byte offsets into the pipeline text for error messages.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PipelineElement {
    Pass {
        name: String,
        offset: usize,
        /// The text between the braces, and its offset.
        options: Option<(String, usize)>,
    },
    Nested {
        anchor: String,
        offset: usize,
        elements: Vec<PipelineElement>,
    },
}

impl PipelineElement {
    pub fn offset(&self) -> usize {
        match self {
            PipelineElement::Pass { offset, .. } | PipelineElement::Nested { offset, .. } => {
                *offset
            }
        }
    }
}

/// An error in a pipeline string, pointing at a column.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PipelineError {
    /// The pipeline text.
    pub text: String,
    /// Byte offset of the error in `text`.
    pub offset: usize,
    pub message: String,
}

impl PipelineError {
    pub fn new(text: &str, offset: usize, message: impl Into<String>) -> Self {
        PipelineError {
            text: text.to_string(),
            offset: offset.min(text.len()),
            message: message.into(),
        }
    }
    /// The 1-based column (in chars) of the error.
    pub fn column(&self) -> usize {
        self.text[..self.offset].chars().count() + 1
    }
}

impl fmt::Display for PipelineError {
    /// As MLIR's: `<pass pipeline>:1:COL: error: MESSAGE`, then the text and a caret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = self.column();
        writeln!(f, "<pass pipeline>:1:{col}: error: {}", self.message)?;
        writeln!(f, "{}", self.text)?;
        write!(f, "{}^", " ".repeat(col - 1))
    }
}

impl std::error::Error for PipelineError {}

/// Parses a comma-separated list of elements (the whole text).
pub fn parse_pipeline(text: &str) -> Result<Vec<PipelineElement>, PipelineError> {
    let mut p = Parser { text, pos: 0 };
    let elements = p.parse_list()?;
    p.skip_ws();
    if p.pos < text.len() {
        let c = p.peek().unwrap_or(' ');
        let msg = if c == ')' {
            "encountered extra closing ')' creating unbalanced parentheses".to_string()
        } else {
            format!("unexpected '{c}'")
        };
        return Err(p.error(p.pos, msg));
    }
    Ok(elements)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, offset: usize, msg: impl Into<String>) -> PipelineError {
        PipelineError::new(self.text, offset, msg)
    }
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }
    fn skip_ws(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    /// `element (, element)*`, stopping before `)` or at the end.
    fn parse_list(&mut self) -> Result<Vec<PipelineElement>, PipelineError> {
        let mut out = vec![self.parse_element()?];
        loop {
            self.skip_ws();
            if self.peek() != Some(',') {
                return Ok(out);
            }
            self.pos += 1;
            out.push(self.parse_element()?);
        }
    }

    fn parse_element(&mut self) -> Result<PipelineElement, PipelineError> {
        self.skip_ws();
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || ",(){}".contains(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        let name = self.text[start..self.pos].to_string();
        if name.is_empty() {
            return Err(self.error(start, "expected a pass name or an op name"));
        }
        self.skip_ws();
        match self.peek() {
            Some('(') => {
                let open = self.pos;
                self.pos += 1;
                let elements = self.parse_list()?;
                self.skip_ws();
                if self.peek() != Some(')') {
                    return Err(self.error(
                        open,
                        format!("missing closing ')' for the '{name}' pipeline"),
                    ));
                }
                self.pos += 1;
                Ok(PipelineElement::Nested {
                    anchor: name,
                    offset: start,
                    elements,
                })
            }
            Some('{') => {
                let open = self.pos;
                let end = self.scan_braces(open)?;
                let options = self.text[open + 1..end].to_string();
                self.pos = end + 1;
                Ok(PipelineElement::Pass {
                    name,
                    offset: start,
                    options: Some((options, open + 1)),
                })
            }
            Some('}') => Err(self.error(self.pos, "unexpected '}'")),
            _ => Ok(PipelineElement::Pass {
                name,
                offset: start,
                options: None,
            }),
        }
    }

    /// The offset of the `}` matching the `{` at `open` (quotes respected).
    fn scan_braces(&self, open: usize) -> Result<usize, PipelineError> {
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        for (i, c) in self.text[open..].char_indices() {
            match (quote, c) {
                (Some(q), _) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '{') => depth += 1,
                (None, '}') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(open + i);
                    }
                }
                _ => {}
            }
        }
        Err(self.error(open, "missing closing '}' while processing pass options"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(name: &str, offset: usize) -> PipelineElement {
        PipelineElement::Pass {
            name: name.into(),
            offset,
            options: None,
        }
    }

    #[test]
    fn nested_pipeline_with_options() {
        let text = "builtin.module(qd.kernel(cse,canonicalize{max-iterations=4}),symbol-dce)";
        let els = parse_pipeline(text).unwrap();
        assert_eq!(
            els,
            vec![PipelineElement::Nested {
                anchor: "builtin.module".into(),
                offset: 0,
                elements: vec![
                    PipelineElement::Nested {
                        anchor: "qd.kernel".into(),
                        offset: 15,
                        elements: vec![
                            pass("cse", 25),
                            PipelineElement::Pass {
                                name: "canonicalize".into(),
                                offset: 29,
                                options: Some(("max-iterations=4".into(), 42)),
                            },
                        ],
                    },
                    pass("symbol-dce", 61),
                ],
            }]
        );
    }

    #[test]
    fn whitespace_is_allowed_between_tokens() {
        let els = parse_pipeline(" builtin.module ( cse , dce{ a=1 } ) ").unwrap();
        let PipelineElement::Nested { elements, .. } = &els[0] else {
            panic!()
        };
        assert_eq!(elements.len(), 2);
        assert_eq!(elements[0], pass("cse", 18));
    }

    #[test]
    fn options_may_hold_braces_and_quotes() {
        let els = parse_pipeline("p{a={x,y} b='}' c=\"{\"}").unwrap();
        let PipelineElement::Pass { options, .. } = &els[0] else {
            panic!()
        };
        assert_eq!(options.as_ref().unwrap().0, "a={x,y} b='}' c=\"{\"");
    }

    fn err(text: &str) -> (usize, String) {
        let e = parse_pipeline(text).unwrap_err();
        (e.column(), e.message)
    }

    #[test]
    fn errors_carry_columns() {
        assert_eq!(
            err("builtin.module(cse"),
            (
                15,
                "missing closing ')' for the 'builtin.module' pipeline".into()
            )
        );
        assert_eq!(
            err("builtin.module(cse))"),
            (
                20,
                "encountered extra closing ')' creating unbalanced parentheses".into()
            )
        );
        assert_eq!(
            err("builtin.module(cse{x=1)"),
            (
                19,
                "missing closing '}' while processing pass options".into()
            )
        );
        assert_eq!(
            err("builtin.module(cse,)"),
            (20, "expected a pass name or an op name".into())
        );
        assert_eq!(err("a(())").0, 3);
        assert_eq!(err("cse}").1, "unexpected '}'");
        assert_eq!(err("").0, 1);
    }

    #[test]
    fn error_display_has_a_caret() {
        let e = parse_pipeline("builtin.module(cse,)").unwrap_err();
        assert_eq!(
            e.to_string(),
            "<pass pipeline>:1:20: error: expected a pass name or an op name\n\
             builtin.module(cse,)\n                   ^"
        );
    }
}
