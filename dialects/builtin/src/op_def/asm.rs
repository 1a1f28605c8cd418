//! The generic parser and printer of assembly formats: one pair of `OpInfo` syntax hooks for every
//! op declared with a format. They walk the format's elements against the `OpAsmParser` /
//! `OpAsmPrinter` interfaces.
//!
//! Spacing follows ODS: every element is preceded by a space, except `,` `)` `]` `>` `}`, anything
//! right after `(` `[` `<` `{`, and `(` `[` `<` `{` right after a value, type or keyword
//! (`@x[%i]`). The custom form makes exactly as many results as the text names on the left of
//! `=`, so that a missing or extra result is reported by the verifier, not the parser (extra ones
//! get type `none`).

use super::def::{segment, Arity, OpDef, Syntax, ValueDef};
use super::format::{Anchor, Elem};
use crate::asm::{Delimiter, OpAsmParser, OpAsmPrinter, UnresolvedOperand};
use crate::{AttrData, Attribute, DiagResult, Ident, OpId, OperationState, RegionId, Type};

/// Literals parsed as punctuation; any other literal is a keyword.
const PUNCT: [&str; 17] = [
    "(", ")", "[", "]", "{", "}", "<", ">", ",", ":", "=", "->", "?", "*", "+", "-", "...",
];

fn elements(def: &'static OpDef) -> Result<&'static [Elem], String> {
    match &def.syntax {
        Syntax::Format(f) => f.elements(def),
        _ => Err(format!("op '{}' has no assembly format", def.name)),
    }
}

fn arities(groups: &[ValueDef]) -> Vec<Arity> {
    groups.iter().map(|v| v.arity).collect()
}

// ----- printing -------------------------------------------------------------------------------

/// What the previous printed element was, for spacing.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Last {
    Start,
    Open,
    Punct,
    Other,
}

struct Printer<'p> {
    p: &'p mut dyn OpAsmPrinter,
    op: OpId,
    def: &'static OpDef,
    last: Last,
}

/// `OpInfo::print` of every op declared with a format.
pub(crate) fn print(op: OpId, p: &mut dyn OpAsmPrinter) {
    let Some(def) = OpDef::of_op(p.ctx(), op) else {
        return;
    };
    let Ok(elems) = elements(def) else {
        return;
    };
    let mut pr = Printer {
        p,
        op,
        def,
        last: Last::Start,
    };
    pr.elems(elems);
}

impl Printer<'_> {
    fn space(&mut self) {
        if self.last != Last::Open {
            self.p.write(" ");
        }
    }

    fn elems(&mut self, elems: &[Elem]) {
        for e in elems {
            self.elem(e);
        }
    }

    fn operands(&self, g: usize) -> Vec<crate::Value> {
        let ctx = self.p.ctx();
        let n = ctx.num_operands(self.op);
        segment(&arities(self.def.operands), g, n)
            .filter(|&i| i < n)
            .map(|i| ctx.operand(self.op, i))
            .collect()
    }

    fn result_types(&self, g: usize) -> Vec<Type> {
        let ctx = self.p.ctx();
        let rs = ctx.results(self.op);
        segment(&arities(self.def.results), g, rs.len())
            .filter_map(|i| rs.get(i).map(|&v| ctx.value_type(v)))
            .collect()
    }

    fn elem(&mut self, e: &Elem) {
        match e {
            Elem::Literal(l) => {
                let closing = matches!(*l, "," | ")" | "]" | ">" | "}");
                let opening = matches!(*l, "(" | "[" | "<" | "{");
                if !(closing || opening && self.last == Last::Other) {
                    self.space();
                }
                self.p.write(l);
                self.last = if opening {
                    Last::Open
                } else if PUNCT.contains(l) {
                    Last::Punct
                } else {
                    Last::Other
                };
            }
            Elem::Operand(g) => {
                let vs = self.operands(*g);
                if vs.is_empty() {
                    if self.def.operands[*g].arity == Arity::Single {
                        self.space();
                        self.p.write("<<missing operand>>");
                        self.last = Last::Other;
                    }
                    return;
                }
                self.space();
                self.p.print_operands(&vs);
                self.last = Last::Other;
            }
            Elem::OperandType(g) => {
                let ctx = self.p.ctx();
                let tys: Vec<Type> = self
                    .operands(*g)
                    .into_iter()
                    .map(|v| ctx.value_type(v))
                    .collect();
                self.types(&self.def.operands[*g], &tys);
            }
            Elem::ResultType(g) => {
                let tys = self.result_types(*g);
                self.types(&self.def.results[*g], &tys);
            }
            Elem::Prop(i) => {
                let pd = &self.def.props[*i];
                match self.p.ctx().prop(self.op, pd.name) {
                    // A unit property (a flag) prints as nothing: the literal before it shows it.
                    Some(a) if matches!(self.p.ctx().attr_data(a), AttrData::Unit) => return,
                    Some(a) => {
                        self.space();
                        (pd.spec.print)(self.p, a);
                    }
                    None if pd.required => {
                        self.space();
                        self.p.write(&format!("<<missing {}>>", pd.name));
                    }
                    None => return,
                }
                self.last = Last::Other;
            }
            Elem::Region(i) => {
                self.space();
                match self.p.ctx().regions(self.op).get(*i) {
                    Some(&r) => self.p.print_region(r, true),
                    None => self.p.write("{\n}"),
                }
                self.last = Last::Other;
            }
            Elem::AttrDict => self.attr_dict(),
            Elem::Optional { anchor, elems } => {
                if self.present(*anchor) {
                    self.elems(elems);
                }
            }
        }
    }

    /// Types of one group, through its constraint's custom form, comma-separated.
    fn types(&mut self, vd: &ValueDef, tys: &[Type]) {
        if tys.is_empty() {
            if vd.arity == Arity::Single {
                self.space();
                self.p.write("<<missing type>>");
                self.last = Last::Other;
            }
            return;
        }
        self.space();
        for (k, &t) in tys.iter().enumerate() {
            if k > 0 {
                self.p.write(", ");
            }
            vd.constraint.print_type(self.p, t);
        }
        self.last = Last::Other;
    }

    fn present(&self, anchor: Anchor) -> bool {
        let ctx = self.p.ctx();
        match anchor {
            Anchor::Operand(g) => !self.operands(g).is_empty(),
            Anchor::Prop(i) => ctx.prop(self.op, self.def.props[i].name).is_some(),
            Anchor::Region(i) => ctx
                .regions(self.op)
                .get(i)
                .is_some_and(|&r| ctx.region_blocks(r).iter().any(|&b| !ctx.block_is_empty(b))),
        }
    }

    /// `{...}`: the declared properties the format does not print elsewhere (declaration order),
    /// then undeclared properties (so that the text shows what the verifier rejects), then the
    /// discardable attributes.
    fn attr_dict(&mut self) {
        let ctx = self.p.ctx();
        let def = self.def;
        let elems = elements(def).unwrap_or(&[]);
        let mut entries: Vec<(Ident, Attribute, bool)> = Vec::new();
        for (i, pd) in def.props.iter().enumerate() {
            if in_format(elems, &Elem::Prop(i)) {
                continue;
            }
            if let Some(a) = ctx.prop(self.op, pd.name) {
                let k = ctx
                    .lookup_ident(pd.name)
                    .expect("a present property's name is interned");
                entries.push((k, a, true));
            }
        }
        for &(k, a) in ctx.properties(self.op) {
            if def.prop(ctx.ident_str(k)).is_none() {
                entries.push((k, a, false));
            }
        }
        entries.extend(ctx.attrs(self.op).iter().map(|&(k, a)| (k, a, false)));
        if entries.is_empty() {
            return;
        }
        self.space();
        self.p.write("{");
        for (n, (k, a, declared)) in entries.into_iter().enumerate() {
            if n > 0 {
                self.p.write(", ");
            }
            let key = self.p.ctx().ident_str(k).to_string();
            if is_bare_key(&key) {
                self.p.write(&key);
            } else {
                self.p.print_string(&key);
            }
            if matches!(self.p.ctx().attr_data(a), AttrData::Unit) {
                continue;
            }
            self.p.write(" = ");
            match def.prop(&key) {
                Some(pd) if declared => (pd.spec.print_in_dict)(self.p, a),
                _ => self.p.print_attribute(a),
            }
        }
        self.p.write("}");
        self.last = Last::Other;
    }
}

fn in_format(elems: &[Elem], e: &Elem) -> bool {
    elems.iter().any(|x| match x {
        Elem::Optional { elems, .. } => in_format(elems, e),
        x => x == e,
    })
}

/// Whether a dictionary key prints as a bare identifier (`[A-Za-z_][A-Za-z0-9_$.]*`).
fn is_bare_key(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

// ----- parsing --------------------------------------------------------------------------------

struct Parsed {
    operands: Vec<Vec<UnresolvedOperand>>,
    operand_types: Vec<Option<Vec<Type>>>,
    result_types: Vec<Option<Vec<Type>>>,
    regions: Vec<Option<RegionId>>,
}

/// `OpInfo::parse` of every op declared with a format.
pub(crate) fn parse(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let Some(def) = p.op_info().and_then(OpDef::of) else {
        return Err(p.error("expected an op declared with an assembly format"));
    };
    let elems = elements(def).map_err(|m| p.error(&m))?;
    let mut s = Parsed {
        operands: vec![Vec::new(); def.operands.len()],
        operand_types: vec![None; def.operands.len()],
        result_types: vec![None; def.results.len()],
        regions: vec![None; def.regions.len()],
    };
    let n_results = p.num_results();
    parse_elems(p, st, def, elems, &mut s, n_results)?;
    finish(p, st, def, s, n_results)
}

fn parse_elems(
    p: &mut dyn OpAsmParser,
    st: &mut OperationState,
    def: &'static OpDef,
    elems: &[Elem],
    s: &mut Parsed,
    n_results: usize,
) -> DiagResult<()> {
    for e in elems {
        parse_elem(p, st, def, e, s, n_results)?;
    }
    Ok(())
}

fn parse_literal(p: &mut dyn OpAsmParser, l: &str) -> DiagResult<()> {
    if PUNCT.contains(&l) {
        p.parse_punct(l)
    } else {
        p.parse_keyword(l)
    }
}

fn parse_elem(
    p: &mut dyn OpAsmParser,
    st: &mut OperationState,
    def: &'static OpDef,
    e: &Elem,
    s: &mut Parsed,
    n_results: usize,
) -> DiagResult<()> {
    match e {
        Elem::Literal(l) => parse_literal(p, l)?,
        Elem::Operand(g) => {
            s.operands[*g] = match def.operands[*g].arity {
                Arity::Single => vec![p.parse_operand()?],
                Arity::Optional => p.parse_optional_operand()?.into_iter().collect(),
                Arity::Variadic => p.parse_operand_list(Delimiter::None)?,
            }
        }
        Elem::OperandType(g) => {
            let n = match def.operands[*g].arity {
                Arity::Single => 1,
                _ => s.operands[*g].len(),
            };
            s.operand_types[*g] = Some(parse_types(p, &def.operands[*g], n)?);
        }
        Elem::ResultType(g) => {
            let n = match def.results[*g].arity {
                Arity::Single => 1,
                _ => segment(&arities(def.results), *g, n_results).len(),
            };
            s.result_types[*g] = Some(parse_types(p, &def.results[*g], n)?);
        }
        Elem::Prop(i) => {
            let pd = &def.props[*i];
            let a = (pd.spec.parse)(p)?;
            st.add_prop(p.ctx(), pd.name, a);
        }
        Elem::Region(i) => s.regions[*i] = Some(p.parse_region(&[])?),
        Elem::AttrDict => {
            let mut entries = Vec::new();
            p.parse_optional_attr_dict(&mut entries)?;
            for (k, v) in entries {
                if def.prop(p.ctx_ref().ident_str(k)).is_some() {
                    st.properties.push((k, v));
                } else {
                    st.attributes.push((k, v));
                }
            }
        }
        Elem::Optional { anchor, elems } => {
            let (first, rest) = elems.split_first().expect("a group has elements");
            let present = match first {
                Elem::Literal(l) if PUNCT.contains(l) => p.parse_optional_punct(l),
                Elem::Literal(l) => p.parse_optional_keyword(l),
                Elem::Operand(g) => match p.parse_optional_operand()? {
                    Some(o) => {
                        s.operands[*g] = vec![o];
                        true
                    }
                    None => false,
                },
                _ => unreachable!("checked when the format is read"),
            };
            if present {
                for e in rest {
                    match e {
                        // Inside its group, the anchor operand is required.
                        Elem::Operand(g) if def.operands[*g].arity == Arity::Optional => {
                            s.operands[*g] = vec![p.parse_operand()?];
                        }
                        e => parse_elem(p, st, def, e, s, n_results)?,
                    }
                }
            } else if let Anchor::Region(i) = anchor {
                s.regions[*i] = Some(p.ctx().create_region());
            }
        }
    }
    Ok(())
}

/// `n` types of a group, comma-separated.
fn parse_types(p: &mut dyn OpAsmParser, vd: &ValueDef, n: usize) -> DiagResult<Vec<Type>> {
    let mut out = Vec::with_capacity(n);
    for k in 0..n {
        if k > 0 {
            p.parse_punct(",")?;
        }
        out.push(vd.constraint.parse_type(p)?);
    }
    Ok(out)
}

/// Infers the missing types, resolves the operands and fills the state.
fn finish(
    p: &mut dyn OpAsmParser,
    st: &mut OperationState,
    def: &'static OpDef,
    s: Parsed,
    n_results: usize,
) -> DiagResult<()> {
    // Fixed types, then inference to a fixpoint (a source may itself be inferred). Operands
    // and results share one index space here: operands first.
    let values: Vec<&ValueDef> = def.operands.iter().chain(def.results).collect();
    let mut tys: Vec<Option<Vec<Type>>> =
        s.operand_types.into_iter().chain(s.result_types).collect();
    for (vd, t) in values.iter().zip(tys.iter_mut()) {
        if let (None, Some(build)) = (&t, vd.constraint.build) {
            *t = Some(vec![build(p.ctx())]);
        }
    }
    loop {
        let mut progress = false;
        for k in 0..values.len() {
            let Some(inf) = values[k].infer.filter(|_| tys[k].is_none()) else {
                continue;
            };
            let from = values
                .iter()
                .position(|v| v.name == inf.from)
                .and_then(|j| tys[j].as_ref())
                .and_then(|t| t.first().copied());
            if let Some(from) = from {
                tys[k] = Some(vec![(inf.f)(p.ctx(), from)]);
                progress = true;
            }
        }
        if !progress {
            break;
        }
    }
    let result_tys = tys.split_off(def.operands.len());
    let operand_tys = tys;
    // Operands.
    let mut operands = Vec::new();
    for (g, vd) in def.operands.iter().enumerate() {
        let uses = &s.operands[g];
        let tys: Vec<Type> = match &operand_tys[g] {
            Some(t) if vd.arity == Arity::Single || t.len() == uses.len() => t.clone(),
            // An inferred or built type applies to every value of the group.
            Some(t) if t.len() == 1 => vec![t[0]; uses.len()],
            Some(t) => {
                return Err(p.error(&format!(
                    "expected {} types for '{}', got {}",
                    uses.len(),
                    vd.name,
                    t.len()
                )))
            }
            None => match vd.constraint.build {
                Some(b) => vec![b(p.ctx()); uses.len()],
                None => {
                    return Err(p.error(&format!("the type of '{}' is not determined", vd.name)))
                }
            },
        };
        operands.extend(p.resolve_operands(uses, &tys)?);
    }
    // Results: as many as the text names.
    let arity = arities(def.results);
    let mut result_types = Vec::with_capacity(n_results);
    for (g, vd) in def.results.iter().enumerate() {
        let range = segment(&arity, g, n_results);
        let want = range.filter(|&i| i < n_results).count();
        if want == 0 {
            continue;
        }
        let tys = match &result_tys[g] {
            Some(t) if t.len() == want => t.clone(),
            Some(t) if t.len() == 1 && vd.arity != Arity::Single => vec![t[0]; want],
            Some(t) => {
                return Err(p.error(&format!(
                    "expected {want} types for '{}', got {}",
                    vd.name,
                    t.len()
                )))
            }
            None => match vd.constraint.build {
                Some(b) => vec![b(p.ctx()); want],
                None => {
                    return Err(p.error(&format!("the type of '{}' is not determined", vd.name)))
                }
            },
        };
        result_types.extend(tys);
    }
    while result_types.len() < n_results {
        let none = p.ctx().none_type();
        result_types.push(none);
    }
    st.operands = operands;
    st.result_types = result_types;
    for r in s.regions {
        // A region inside an absent optional group is empty.
        let r = r.unwrap_or_else(|| p.ctx().create_region());
        st.regions.push(r);
    }
    Ok(())
}
