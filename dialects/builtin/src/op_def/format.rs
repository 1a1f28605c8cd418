//! Assembly formats (MLIR ODS's `assemblyFormat`): the text of a declaration, read once into
//! [`Elem`]s that the generic parser and printer interpret.
//!
//! ```text
//! format   := elem*
//! elem     := '`' literal '`'          punctuation (`,` `:` `->` `[` ...) or a keyword (`to`)
//!           | '$' name                 an operand group, a property or a region
//!           | 'type(' '$' name ')'     the type(s) of an operand or result group
//!           | 'attr-dict'              `{...}`: properties not named elsewhere, then attributes
//!           | '(' elem+ ')?'           optional group; one element inside carries the anchor
//!                                      `^` ($optional_operand^, $optional_prop^, $region^), and
//!                                      the group starts with a literal or that operand
//! ```

use super::def::{Arity, OpDef};
use std::sync::OnceLock;

/// One element of a format.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Elem {
    Literal(&'static str),
    Operand(usize),
    Prop(usize),
    Region(usize),
    OperandType(usize),
    ResultType(usize),
    AttrDict,
    /// Printed when the anchor is present; parsed when its first element is.
    Optional {
        anchor: Anchor,
        elems: Vec<Elem>,
    },
}

/// What decides whether an optional group is present.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Anchor {
    Operand(usize),
    Prop(usize),
    /// A region that holds at least one op.
    Region(usize),
}

/// A format string and its elements, read on first use.
pub struct Format {
    pub src: &'static str,
    elems: OnceLock<Result<Vec<Elem>, String>>,
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Format({:?})", self.src)
    }
}

impl Format {
    pub const fn new(src: &'static str) -> Self {
        Format {
            src,
            elems: OnceLock::new(),
        }
    }

    /// The elements, or why the format does not fit `def`.
    pub fn elements(&self, def: &OpDef) -> Result<&[Elem], String> {
        self.elems
            .get_or_init(|| read(self.src, def).and_then(|e| check(&e, def).map(|()| e)))
            .as_deref()
            .map_err(|m| format!("format `{}`: {m}", self.src))
    }
}

/// Reads the elements of `src`.
fn read(src: &'static str, def: &OpDef) -> Result<Vec<Elem>, String> {
    let mut r = Reader { src, pos: 0 };
    let (elems, _) = r.elems(def, false)?;
    if r.pos < src.len() {
        return Err(format!("unexpected `{}`", &src[r.pos..]));
    }
    Ok(elems)
}

struct Reader {
    src: &'static str,
    pos: usize,
}

impl Reader {
    fn rest(&self) -> &'static str {
        &self.src[self.pos..]
    }
    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }
    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    fn name(&mut self) -> Result<&'static str, String> {
        if !self.eat("$") {
            return Err(format!("expected `$name` at `{}`", self.rest()));
        }
        let rest = self.rest();
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if n == 0 {
            return Err("empty `$` name".into());
        }
        self.pos += n;
        Ok(&rest[..n])
    }

    /// Elements up to the end, or up to `)?` when `in_group` (then with the group's anchor).
    fn elems(
        &mut self,
        def: &OpDef,
        in_group: bool,
    ) -> Result<(Vec<Elem>, Option<Anchor>), String> {
        let mut out = Vec::new();
        let mut anchor = None;
        loop {
            self.skip_ws();
            if self.rest().is_empty() {
                if in_group {
                    return Err("unterminated optional group".into());
                }
                return Ok((out, anchor));
            }
            if in_group && self.eat(")?") {
                return Ok((out, anchor));
            }
            if self.eat("`") {
                let rest = self.rest();
                let Some(end) = rest.find('`') else {
                    return Err("unterminated literal".into());
                };
                if end == 0 {
                    return Err("empty literal".into());
                }
                self.pos += end + 1;
                out.push(Elem::Literal(&rest[..end]));
            } else if self.eat("attr-dict") {
                out.push(Elem::AttrDict);
            } else if self.eat("type(") {
                let n = self.name()?;
                if !self.eat(")") {
                    return Err(format!("expected `)` after `type(${n}`"));
                }
                if let Some(i) = def.operands.iter().position(|v| v.name == n) {
                    out.push(Elem::OperandType(i));
                } else if let Some(i) = def.results.iter().position(|v| v.name == n) {
                    out.push(Elem::ResultType(i));
                } else {
                    return Err(format!("`type(${n})`: no operand or result '{n}'"));
                }
            } else if self.eat("(") {
                if in_group {
                    return Err("nested optional groups are not supported".into());
                }
                out.push(self.group(def)?);
            } else {
                let n = self.name()?;
                let e = named(def, n)?;
                if self.eat("^") {
                    if !in_group {
                        return Err(format!("anchor `${n}^` outside an optional group"));
                    }
                    if anchor.is_some() {
                        return Err("an optional group has one anchor".into());
                    }
                    anchor = Some(match e {
                        Elem::Operand(i) if def.operands[i].arity == Arity::Optional => {
                            Anchor::Operand(i)
                        }
                        Elem::Prop(i) if !def.props[i].required => Anchor::Prop(i),
                        Elem::Region(i) => Anchor::Region(i),
                        _ => {
                            return Err(format!(
                                "anchor `${n}^` must be an optional operand, an optional property or a region"
                            ))
                        }
                    });
                }
                out.push(e);
            }
        }
    }

    /// An optional group after its `(`.
    fn group(&mut self, def: &OpDef) -> Result<Elem, String> {
        let (elems, anchor) = self.elems(def, true)?;
        let Some(anchor) = anchor else {
            return Err("optional group without an anchor `^`".into());
        };
        let leads = match (elems.first(), anchor) {
            (Some(Elem::Literal(_)), _) => true,
            (Some(Elem::Operand(i)), Anchor::Operand(a)) => *i == a,
            _ => false,
        };
        if !leads {
            return Err("an optional group must start with a literal or its anchor operand".into());
        }
        Ok(Elem::Optional { anchor, elems })
    }
}

/// `$name`: an operand group, a property or a region.
fn named(def: &OpDef, n: &str) -> Result<Elem, String> {
    if let Some(i) = def.operands.iter().position(|v| v.name == n) {
        Ok(Elem::Operand(i))
    } else if let Some(i) = def.props.iter().position(|p| p.name == n) {
        Ok(Elem::Prop(i))
    } else if let Some(i) = def.regions.iter().position(|r| r.name == n) {
        Ok(Elem::Region(i))
    } else {
        Err(format!("`${n}`: no operand, property or region '{n}'"))
    }
}

fn flatten(elems: &[Elem], out: &mut Vec<Elem>) {
    for e in elems {
        match e {
            Elem::Optional { elems, .. } => flatten(elems, out),
            e => out.push(e.clone()),
        }
    }
}

/// Every operand and region appears once, `attr-dict` once, no property twice, and every operand
/// and result type is determined by the text: `type(...)`, inference or a buildable constraint.
fn check(elems: &[Elem], def: &OpDef) -> Result<(), String> {
    let mut flat = Vec::new();
    flatten(elems, &mut flat);
    let count = |e: &Elem| flat.iter().filter(|x| *x == e).count();
    for (i, v) in def.operands.iter().enumerate() {
        if count(&Elem::Operand(i)) != 1 {
            return Err(format!("operand '{}' must appear exactly once", v.name));
        }
    }
    for (i, r) in def.regions.iter().enumerate() {
        if count(&Elem::Region(i)) != 1 {
            return Err(format!("region '{}' must appear exactly once", r.name));
        }
    }
    for (i, p) in def.props.iter().enumerate() {
        if count(&Elem::Prop(i)) > 1 {
            return Err(format!("property '{}' appears twice", p.name));
        }
    }
    if count(&Elem::AttrDict) != 1 {
        return Err("`attr-dict` must appear exactly once".into());
    }
    let mut typed: Vec<&str> = flat
        .iter()
        .filter_map(|e| match e {
            Elem::OperandType(i) => Some(def.operands[*i].name),
            Elem::ResultType(i) => Some(def.results[*i].name),
            _ => None,
        })
        .collect();
    let values: Vec<_> = def.operands.iter().chain(def.results).collect();
    typed.extend(
        values
            .iter()
            .filter(|v| v.constraint.build.is_some())
            .map(|v| v.name),
    );
    loop {
        let before = typed.len();
        for v in &values {
            if let Some(inf) = v.infer {
                if typed.contains(&inf.from) && !typed.contains(&v.name) {
                    typed.push(v.name);
                }
            }
        }
        if typed.len() == before {
            break;
        }
    }
    for v in &values {
        if !typed.contains(&v.name) {
            return Err(format!("the type of '{}' is not determined", v.name));
        }
    }
    Ok(())
}
