//! The regular expressions of `expected-*-re` directives: POSIX extended syntax as llvm::Regex
//! takes it (`.`, `[...]` with ranges, negation and `[:class:]`, `*`, `+`, `?`, `{m,n}`,
//! `( | )`, `^`, `$`, `\c` for a literal c), matched anywhere in the message by backtracking.

#[derive(Debug)]
enum Node {
    Char(char),
    Any,
    /// Ranges, negated.
    Class(Vec<(char, char)>, bool),
    /// Alternatives.
    Group(Vec<Vec<Piece>>),
    Start,
    End,
}

#[derive(Debug)]
struct Piece {
    node: Node,
    min: usize,
    max: Option<usize>,
}

/// A compiled expression.
#[derive(Debug)]
pub struct Regex(Vec<Vec<Piece>>);

impl Regex {
    /// Compiles `pattern`; the error says what is wrong.
    pub fn new(pattern: &str) -> Result<Regex, String> {
        let chars: Vec<char> = pattern.chars().collect();
        let mut pos = 0;
        let alts = parse_alts(&chars, &mut pos)?;
        if pos < chars.len() {
            return Err("parentheses not balanced".into());
        }
        Ok(Regex(alts))
    }

    /// Whether the expression matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        let t: Vec<char> = text.chars().collect();
        (0..=t.len()).any(|start| match_alts(&self.0, &t, start, &|_| true))
    }
}

/// `text` with every character that is special in a regex escaped (llvm::Regex::escape).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "()^$|*+?.[]\\{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn parse_alts(c: &[char], pos: &mut usize) -> Result<Vec<Vec<Piece>>, String> {
    let mut alts = vec![parse_seq(c, pos)?];
    while *pos < c.len() && c[*pos] == '|' {
        *pos += 1;
        alts.push(parse_seq(c, pos)?);
    }
    Ok(alts)
}

fn parse_seq(c: &[char], pos: &mut usize) -> Result<Vec<Piece>, String> {
    let mut seq = Vec::new();
    while *pos < c.len() && c[*pos] != '|' && c[*pos] != ')' {
        let ch = c[*pos];
        *pos += 1;
        let node = match ch {
            '.' => Node::Any,
            '^' => Node::Start,
            '$' => Node::End,
            '\\' => {
                let Some(&e) = c.get(*pos) else {
                    return Err("trailing backslash (\\)".into());
                };
                *pos += 1;
                Node::Char(e)
            }
            '(' => {
                let alts = parse_alts(c, pos)?;
                if c.get(*pos) != Some(&')') {
                    return Err("parentheses not balanced".into());
                }
                *pos += 1;
                Node::Group(alts)
            }
            '[' => parse_class(c, pos)?,
            '*' | '+' | '?' | '{' => return Err("repetition-operator operand invalid".into()),
            _ => Node::Char(ch),
        };
        let (min, max) = parse_quantifier(c, pos)?;
        seq.push(Piece { node, min, max });
    }
    Ok(seq)
}

fn parse_quantifier(c: &[char], pos: &mut usize) -> Result<(usize, Option<usize>), String> {
    let q = match c.get(*pos) {
        Some('*') => (0, None),
        Some('+') => (1, None),
        Some('?') => (0, Some(1)),
        Some('{') => {
            let close = c[*pos..]
                .iter()
                .position(|&x| x == '}')
                .ok_or("braces not balanced")?;
            let body: String = c[*pos + 1..*pos + close].iter().collect();
            let num = |s: &str| {
                s.trim()
                    .parse::<usize>()
                    .map_err(|_| "invalid repetition count(s)")
            };
            let (min, max) = match body.split_once(',') {
                None => (num(&body)?, Some(num(&body)?)),
                Some((a, "")) => (num(a)?, None),
                Some((a, b)) => (num(a)?, Some(num(b)?)),
            };
            if max.is_some_and(|m| m < min) {
                return Err("invalid repetition count(s)".into());
            }
            *pos += close;
            (min, max)
        }
        _ => return Ok((1, Some(1))),
    };
    *pos += 1;
    Ok(q)
}

fn parse_class(c: &[char], pos: &mut usize) -> Result<Node, String> {
    let negated = c.get(*pos) == Some(&'^');
    if negated {
        *pos += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let Some(&ch) = c.get(*pos) else {
            return Err("brackets ([ ]) not balanced".into());
        };
        if ch == ']' && !first {
            *pos += 1;
            break;
        }
        first = false;
        if ch == '[' && c.get(*pos + 1) == Some(&':') {
            let rest: String = c[*pos + 2..].iter().collect();
            let end = rest.find(":]").ok_or("invalid character class")?;
            ranges.extend(named_class(&rest[..end])?);
            *pos += 2 + rest[..end].chars().count() + 2;
            continue;
        }
        *pos += 1;
        if c.get(*pos) == Some(&'-') && c.get(*pos + 1).is_some_and(|&e| e != ']') {
            let hi = c[*pos + 1];
            if hi < ch {
                return Err("invalid character range".into());
            }
            ranges.push((ch, hi));
            *pos += 2;
        } else {
            ranges.push((ch, ch));
        }
    }
    Ok(Node::Class(ranges, negated))
}

fn named_class(name: &str) -> Result<Vec<(char, char)>, String> {
    Ok(match name {
        "digit" => vec![('0', '9')],
        "alpha" => vec![('a', 'z'), ('A', 'Z')],
        "alnum" => vec![('a', 'z'), ('A', 'Z'), ('0', '9')],
        "upper" => vec![('A', 'Z')],
        "lower" => vec![('a', 'z')],
        "xdigit" => vec![('0', '9'), ('a', 'f'), ('A', 'F')],
        "space" => vec![(' ', ' '), ('\t', '\r')],
        "blank" => vec![(' ', ' '), ('\t', '\t')],
        "punct" => vec![('!', '/'), (':', '@'), ('[', '`'), ('{', '~')],
        _ => return Err("invalid character class".into()),
    })
}

fn match_alts(alts: &[Vec<Piece>], t: &[char], pos: usize, k: &dyn Fn(usize) -> bool) -> bool {
    alts.iter().any(|seq| match_seq(seq, t, pos, k))
}

fn match_seq(seq: &[Piece], t: &[char], pos: usize, k: &dyn Fn(usize) -> bool) -> bool {
    match seq.split_first() {
        None => k(pos),
        Some((p, rest)) => match_piece(p, 0, t, pos, &|np| match_seq(rest, t, np, k)),
    }
}

/// Greedy repetition: one more of `p` first, then the continuation.
fn match_piece(p: &Piece, count: usize, t: &[char], pos: usize, k: &dyn Fn(usize) -> bool) -> bool {
    if p.max.is_none_or(|m| count < m)
        && match_node(&p.node, t, pos, &|np| {
            // An empty match cannot make progress; stop repeating it.
            (np != pos || count < p.min) && match_piece(p, count + 1, t, np, k)
        })
    {
        return true;
    }
    count >= p.min && k(pos)
}

fn match_node(n: &Node, t: &[char], pos: usize, k: &dyn Fn(usize) -> bool) -> bool {
    match n {
        Node::Char(c) => t.get(pos) == Some(c) && k(pos + 1),
        Node::Any => pos < t.len() && k(pos + 1),
        Node::Class(ranges, negated) => {
            t.get(pos)
                .is_some_and(|&ch| ranges.iter().any(|&(lo, hi)| lo <= ch && ch <= hi) != *negated)
                && k(pos + 1)
        }
        Node::Group(alts) => match_alts(alts, t, pos, k),
        Node::Start => pos == 0 && k(pos),
        Node::End => pos == t.len() && k(pos),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(re: &str, text: &str) -> bool {
        Regex::new(re).unwrap().is_match(text)
    }

    #[test]
    fn posix_extended_subset() {
        assert!(m(
            "must be .*-like",
            "operand #0 must be signless-integer-like, but"
        ));
        assert!(m("^a+b?$", "aaa") && !m("^a+b?$", "aaac"));
        assert!(m("[0-9]{2,3}", "x12") && !m("^[0-9]{2,3}$", "1"));
        assert!(m("(cat|dog)s", "hotdogs") && !m("(cat|dog)s", "cow"));
        assert!(m("[^a-z]", "abC") && !m("[^a-z]", "abc"));
        assert!(m("[[:digit:]]+", "n42") && m("a\\.b", "a.b") && !m("a\\.b", "axb"));
        assert!(m("(a*)*b", "aaab") && m("x{0}y", "y"));
        assert!(m(&escape("f(x) [1]"), "call f(x) [1] now"));
        for bad in ["(a", "a)", "[a", "*a", "a{2,1}", "[[:bogus:]]", "a\\"] {
            assert!(Regex::new(bad).is_err(), "{bad}");
        }
    }
}
