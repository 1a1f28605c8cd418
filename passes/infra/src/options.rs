//! Typed pass options, parsed from MLIR's option syntax `{key=value key2=value flag}`: options
//! are separated by spaces, a value may be quoted (`'a b'`, `"a b"`) or braced (`{a b}`), a list
//! value is comma-separated (`a,b` or `{a,b}`), and a bool option given without a value is true.

use std::fmt;

/// The type of an option's value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum OptionKind {
    Bool,
    Int,
    UInt,
    String,
    StringList,
}

impl OptionKind {
    /// The placeholder shown in `--list-passes` (`--max-iterations=<int>`).
    pub fn placeholder(self) -> &'static str {
        match self {
            OptionKind::Bool => "<bool>",
            OptionKind::Int => "<int>",
            OptionKind::UInt => "<uint>",
            OptionKind::String => "<string>",
            OptionKind::StringList => "<string,...>",
        }
    }
}

/// A typed option value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    UInt(u64),
    String(String),
    StringList(Vec<String>),
}

impl OptionValue {
    pub fn kind(&self) -> OptionKind {
        match self {
            OptionValue::Bool(_) => OptionKind::Bool,
            OptionValue::Int(_) => OptionKind::Int,
            OptionValue::UInt(_) => OptionKind::UInt,
            OptionValue::String(_) => OptionKind::String,
            OptionValue::StringList(_) => OptionKind::StringList,
        }
    }
}

impl fmt::Display for OptionValue {
    /// The value in the syntax the option parser reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::UInt(u) => write!(f, "{u}"),
            OptionValue::String(s) => f.write_str(&quote_if_needed(s)),
            OptionValue::StringList(l) => {
                let parts: Vec<String> = l.iter().map(|s| quote_if_needed(s)).collect();
                write!(f, "{{{}}}", parts.join(","))
            }
        }
    }
}

/// Wraps a string in braces when it would not read back as one token.
fn quote_if_needed(s: &str) -> String {
    if s.is_empty() || s.contains(|c: char| c.is_whitespace() || "{},'\"".contains(c)) {
        format!("{{{s}}}")
    } else {
        s.to_string()
    }
}

/// A pass's declaration of one option.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionDecl {
    /// Kebab-case name, e.g. `max-iterations`.
    pub name: &'static str,
    pub description: &'static str,
    /// The default value; its variant is the option's type.
    pub default: OptionValue,
}

impl OptionDecl {
    pub fn bool(name: &'static str, default: bool, description: &'static str) -> Self {
        Self::new(name, OptionValue::Bool(default), description)
    }
    pub fn int(name: &'static str, default: i64, description: &'static str) -> Self {
        Self::new(name, OptionValue::Int(default), description)
    }
    pub fn uint(name: &'static str, default: u64, description: &'static str) -> Self {
        Self::new(name, OptionValue::UInt(default), description)
    }
    pub fn string(name: &'static str, default: &str, description: &'static str) -> Self {
        Self::new(name, OptionValue::String(default.to_string()), description)
    }
    /// A list of strings, empty by default.
    pub fn string_list(name: &'static str, description: &'static str) -> Self {
        Self::new(name, OptionValue::StringList(Vec::new()), description)
    }
    fn new(name: &'static str, default: OptionValue, description: &'static str) -> Self {
        OptionDecl {
            name,
            description,
            default,
        }
    }
    pub fn kind(&self) -> OptionKind {
        self.default.kind()
    }
}

/// An error in option text: a message and the byte offset (in that text) it points at.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct OptionError {
    pub offset: usize,
    pub message: String,
}

impl OptionError {
    fn new(offset: usize, message: impl Into<String>) -> Self {
        OptionError {
            offset,
            message: message.into(),
        }
    }
}

/// One `key` or `key=value` entry, before typing.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RawOption {
    pub key: String,
    /// The value text as written (quotes and braces not yet removed).
    pub value: Option<String>,
    /// Byte offset of the key in the option text.
    pub offset: usize,
    /// Byte offset of the value in the option text.
    pub value_offset: usize,
}

/// The untyped entries of an option string (the text between a pass name's braces).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PassOptions {
    pub entries: Vec<RawOption>,
}

impl PassOptions {
    /// Splits `key=value key2 key3='a b'` into entries; the text may be wrapped in the braces
    /// that follow a pass name (`{key=value}`). Offsets are into `text` either way.
    pub fn parse(text: &str) -> Result<PassOptions, OptionError> {
        let mut entries = Vec::new();
        let bytes = text.as_bytes();
        let mut i = 0;
        let mut end = bytes.len();
        let trimmed = text.trim_end();
        if trimmed.trim_start().starts_with('{') && trimmed.ends_with('}') {
            i = text.find('{').map_or(0, |p| p + 1);
            end = trimmed.len() - 1;
        }
        let text = &text[..end];
        let bytes = &bytes[..end];
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= bytes.len() {
                break;
            }
            let key_start = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
                if b"{}'\"".contains(&bytes[i]) {
                    return Err(OptionError::new(
                        i,
                        format!("unexpected '{}' in an option name", bytes[i] as char),
                    ));
                }
                i += 1;
            }
            let key = &text[key_start..i];
            if key.is_empty() {
                return Err(OptionError::new(i, "expected an option name before '='"));
            }
            let (value, value_offset) = if i < bytes.len() && bytes[i] == b'=' {
                i += 1;
                let start = i;
                i = scan_value(text, i)?;
                (Some(text[start..i].to_string()), start)
            } else {
                (None, i)
            };
            entries.push(RawOption {
                key: key.to_string(),
                value,
                offset: key_start,
                value_offset,
            });
        }
        Ok(PassOptions { entries })
    }
}

/// Scans a value up to the next space outside quotes and braces; returns the end offset.
fn scan_value(text: &str, start: usize) -> Result<usize, OptionError> {
    let bytes = text.as_bytes();
    let mut i = start;
    let mut depth = 0usize;
    let mut brace_open = Vec::new();
    while i < bytes.len() {
        match bytes[i] {
            b'\'' | b'"' => {
                let q = bytes[i];
                let open = i;
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(OptionError::new(open, "unterminated quoted value"));
                }
            }
            b'{' => {
                brace_open.push(i);
                depth += 1;
            }
            b'}' => {
                if depth == 0 {
                    return Err(OptionError::new(i, "unbalanced '}' in option value"));
                }
                brace_open.pop();
                depth -= 1;
            }
            c if c.is_ascii_whitespace() && depth == 0 => break,
            _ => {}
        }
        i += 1;
    }
    if let Some(&open) = brace_open.last() {
        return Err(OptionError::new(
            open,
            "missing closing '}' in option value",
        ));
    }
    Ok(i)
}

/// Removes one level of quotes or braces around a whole value.
fn unwrap_value(v: &str) -> &str {
    let b = v.as_bytes();
    if b.len() >= 2 {
        let (f, l) = (b[0], b[b.len() - 1]);
        let wrapped = (f == b'\'' || f == b'"') && l == f && closes_at_end(v, f, f)
            || f == b'{' && l == b'}' && closes_at_end(v, b'{', b'}');
        if wrapped {
            return &v[1..v.len() - 1];
        }
    }
    v
}

/// Whether the opener at offset 0 is closed by the last byte (not earlier, as in `{a},{b}`).
fn closes_at_end(v: &str, open: u8, close: u8) -> bool {
    let b = v.as_bytes();
    if open == close {
        return !b[1..b.len() - 1].contains(&open);
    }
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return i == b.len() - 1;
            }
        }
    }
    false
}

/// Splits a list value at commas outside quotes and braces.
fn split_list(v: &str) -> Vec<String> {
    let v = unwrap_value(v);
    if v.trim().is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut cur = String::new();
    for c in v.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '{') => depth += 1,
            (None, '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                out.push(unwrap_value(cur.trim()).to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(unwrap_value(cur.trim()).to_string());
    out
}

/// Option values resolved against a pass's declarations: every declared option has a value
/// (its default unless given).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ParsedOptions {
    values: Vec<(&'static str, OptionValue, bool)>,
}

impl ParsedOptions {
    /// Every option at its default.
    pub fn defaults(decls: &[OptionDecl]) -> Self {
        ParsedOptions {
            values: decls
                .iter()
                .map(|d| (d.name, d.default.clone(), false))
                .collect(),
        }
    }

    /// Types the raw entries against `decls`. `pass` names the pass in messages.
    pub fn resolve(
        decls: &[OptionDecl],
        raw: &PassOptions,
        pass: &str,
    ) -> Result<ParsedOptions, OptionError> {
        let mut out = Self::defaults(decls);
        for e in &raw.entries {
            let Some(idx) = decls.iter().position(|d| d.name == e.key) else {
                let msg = if decls.is_empty() {
                    format!("unknown option '{}': pass '{pass}' takes no options", e.key)
                } else {
                    let known: Vec<&str> = decls.iter().map(|d| d.name).collect();
                    format!(
                        "unknown option '{}' for pass '{pass}'; known options: {}",
                        e.key,
                        known.join(", ")
                    )
                };
                return Err(OptionError::new(e.offset, msg));
            };
            if out.values[idx].2 {
                return Err(OptionError::new(
                    e.offset,
                    format!("option '{}' is given more than once", e.key),
                ));
            }
            let value = typed_value(&decls[idx], e)?;
            out.values[idx] = (decls[idx].name, value, true);
        }
        Ok(out)
    }

    fn get(&self, name: &str) -> &OptionValue {
        match self.values.iter().find(|(n, _, _)| *n == name) {
            Some((_, v, _)) => v,
            None => panic!("pass bug: option '{name}' is not declared"),
        }
    }

    /// The value of a declared bool option. Panics if `name` is not a declared bool option
    /// (a bug in the pass, not a user error).
    pub fn get_bool(&self, name: &str) -> bool {
        match self.get(name) {
            OptionValue::Bool(b) => *b,
            v => panic!("pass bug: option '{name}' is {:?}, not bool", v.kind()),
        }
    }
    pub fn get_int(&self, name: &str) -> i64 {
        match self.get(name) {
            OptionValue::Int(i) => *i,
            v => panic!("pass bug: option '{name}' is {:?}, not int", v.kind()),
        }
    }
    pub fn get_uint(&self, name: &str) -> u64 {
        match self.get(name) {
            OptionValue::UInt(u) => *u,
            v => panic!("pass bug: option '{name}' is {:?}, not uint", v.kind()),
        }
    }
    pub fn get_string(&self, name: &str) -> &str {
        match self.get(name) {
            OptionValue::String(s) => s,
            v => panic!("pass bug: option '{name}' is {:?}, not string", v.kind()),
        }
    }
    pub fn get_list(&self, name: &str) -> &[String] {
        match self.get(name) {
            OptionValue::StringList(l) => l,
            v => panic!("pass bug: option '{name}' is {:?}, not a list", v.kind()),
        }
    }
    /// Whether the option was given explicitly.
    pub fn is_set(&self, name: &str) -> bool {
        self.values.iter().any(|(n, _, set)| *n == name && *set)
    }

    /// Every option as `key=value`, space-separated, in declaration order (MLIR's pipeline dump
    /// prints all options, defaults included).
    pub fn to_option_string(&self) -> String {
        let parts: Vec<String> = self
            .values
            .iter()
            .map(|(n, v, _)| format!("{n}={v}"))
            .collect();
        parts.join(" ")
    }
}

fn typed_value(decl: &OptionDecl, e: &RawOption) -> Result<OptionValue, OptionError> {
    let name = decl.name;
    let Some(raw) = e.value.as_deref() else {
        return match decl.kind() {
            OptionKind::Bool => Ok(OptionValue::Bool(true)),
            _ => Err(OptionError::new(
                e.offset,
                format!("option '{name}' requires a value ({name}=...)"),
            )),
        };
    };
    let v = unwrap_value(raw);
    let invalid = |expected: &str| {
        OptionError::new(
            e.value_offset,
            format!("invalid value '{raw}' for option '{name}': expected {expected}"),
        )
    };
    Ok(match decl.kind() {
        OptionKind::Bool => match v {
            "true" | "1" => OptionValue::Bool(true),
            "false" | "0" => OptionValue::Bool(false),
            _ => return Err(invalid("true or false")),
        },
        OptionKind::Int => OptionValue::Int(v.parse().map_err(|_| invalid("an integer"))?),
        OptionKind::UInt => {
            OptionValue::UInt(v.parse().map_err(|_| invalid("a non-negative integer"))?)
        }
        OptionKind::String => OptionValue::String(v.to_string()),
        OptionKind::StringList => OptionValue::StringList(split_list(raw)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decls() -> Vec<OptionDecl> {
        vec![
            OptionDecl::int("max-iterations", 10, "iterations"),
            OptionDecl::uint("limit", 3, "a limit"),
            OptionDecl::bool("test-convergence", false, "check"),
            OptionDecl::string("mode", "normal", "a mode"),
            OptionDecl::string_list("disable-patterns", "patterns"),
        ]
    }

    fn resolve(text: &str) -> Result<ParsedOptions, OptionError> {
        let raw = PassOptions::parse(text)?;
        ParsedOptions::resolve(&decls(), &raw, "canonicalize")
    }

    #[test]
    fn defaults_when_empty() {
        let o = resolve("").unwrap();
        assert_eq!(o.get_int("max-iterations"), 10);
        assert_eq!(o.get_uint("limit"), 3);
        assert!(!o.get_bool("test-convergence"));
        assert_eq!(o.get_string("mode"), "normal");
        assert!(o.get_list("disable-patterns").is_empty());
        assert!(!o.is_set("mode"));
    }

    #[test]
    fn typed_values() {
        let o = resolve(
            " max-iterations=-4  test-convergence mode='a b' disable-patterns=x,{y z},\"w\" limit=7",
        )
        .unwrap();
        assert_eq!(o.get_int("max-iterations"), -4);
        assert!(o.get_bool("test-convergence"));
        assert_eq!(o.get_string("mode"), "a b");
        assert_eq!(o.get_list("disable-patterns"), ["x", "y z", "w"]);
        assert_eq!(o.get_uint("limit"), 7);
        assert!(o.is_set("mode"));
    }

    #[test]
    fn braced_list_and_bool_forms() {
        let o = resolve("disable-patterns={a,b} test-convergence=false mode={x}").unwrap();
        assert_eq!(o.get_list("disable-patterns"), ["a", "b"]);
        assert!(!o.get_bool("test-convergence"));
        assert_eq!(o.get_string("mode"), "x");
        let o = resolve("disable-patterns={} test-convergence=1").unwrap();
        assert!(o.get_list("disable-patterns").is_empty());
        assert!(o.get_bool("test-convergence"));
    }

    #[test]
    fn unknown_option_lists_known_ones() {
        let e = resolve("max-iterations=2 x=1").unwrap_err();
        assert_eq!(
            e.message,
            "unknown option 'x' for pass 'canonicalize'; known options: max-iterations, limit, \
             test-convergence, mode, disable-patterns"
        );
        assert_eq!(e.offset, 17);
        let raw = PassOptions::parse("x=1").unwrap();
        let e = ParsedOptions::resolve(&[], &raw, "cse").unwrap_err();
        assert_eq!(e.message, "unknown option 'x': pass 'cse' takes no options");
    }

    #[test]
    fn malformed_values() {
        let e = resolve("max-iterations=abc").unwrap_err();
        assert_eq!(
            e.message,
            "invalid value 'abc' for option 'max-iterations': expected an integer"
        );
        assert_eq!(e.offset, 15);
        // MLIR separates options by spaces, not commas.
        let e = resolve("max-iterations=2,limit=3").unwrap_err();
        assert!(e.message.contains("'2,limit=3'"), "{}", e.message);
        let e = resolve("limit=-1").unwrap_err();
        assert!(e.message.contains("expected a non-negative integer"));
        let e = resolve("test-convergence=maybe").unwrap_err();
        assert!(e.message.contains("expected true or false"));
        let e = resolve("max-iterations").unwrap_err();
        assert_eq!(
            e.message,
            "option 'max-iterations' requires a value (max-iterations=...)"
        );
        let e = resolve("limit=1 limit=2").unwrap_err();
        assert_eq!(e.message, "option 'limit' is given more than once");
    }

    #[test]
    fn braces_around_the_whole_text_are_accepted() {
        let raw = PassOptions::parse(" {max-iterations=3 mode={a b}} ").unwrap();
        assert_eq!(raw.entries.len(), 2);
        assert_eq!(raw.entries[0].offset, 2);
        let o = ParsedOptions::resolve(&decls(), &raw, "p").unwrap();
        assert_eq!(o.get_int("max-iterations"), 3);
        assert_eq!(o.get_string("mode"), "a b");
        assert!(PassOptions::parse("{}").unwrap().entries.is_empty());
    }

    #[test]
    fn syntax_errors_point_at_offsets() {
        let e = PassOptions::parse("mode='abc").unwrap_err();
        assert_eq!(
            (e.offset, e.message.as_str()),
            (5, "unterminated quoted value")
        );
        let e = PassOptions::parse("mode={abc").unwrap_err();
        assert_eq!(e.offset, 5);
        let e = PassOptions::parse("mode=a}").unwrap_err();
        assert_eq!(e.offset, 6);
        let e = PassOptions::parse("=3").unwrap_err();
        assert_eq!(e.message, "expected an option name before '='");
    }

    #[test]
    fn option_string_round_trips() {
        let o = resolve("mode='a b' disable-patterns=x,y").unwrap();
        let s = o.to_option_string();
        assert_eq!(
            s,
            "max-iterations=10 limit=3 test-convergence=false mode={a b} disable-patterns={x,y}"
        );
        assert_eq!(resolve(&s).unwrap().get_string("mode"), "a b");
        assert_eq!(
            resolve(&s).unwrap().get_list("disable-patterns"),
            ["x", "y"]
        );
    }
}
