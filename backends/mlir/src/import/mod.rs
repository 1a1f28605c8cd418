//! Import: upstream MLIR (func over memrefs, scf loops, arith, math) -> a qd module whose kernels
//! qd can differentiate (`qd-translate --import=mlir`), so that an MLIR-based front end can use
//! qd's reverse mode.
//!
//! The input is parsed and verified by MLIR itself (melior); each `func.func` becomes a
//! `qd.kernel` of the same name:
//! - arguments: a `memref` of any rank is an ndarray (`!qd.ndarray<?x...xT>`), a scalar stays
//!   itself; `index` is qd's index type, `i32` (an `index` constant or cast is one of i32);
//! - `memref.load`/`memref.store`/`memref.dim` -> `qd.ndarray_load`/`qd.ndarray_store`/
//!   `qd.ndarray_shape` (the dimension a constant);
//! - `arith` and `math` ops are qd's own (qd uses upstream's), rebuilt with their operands and
//!   result types (predicates kept; `fastmath` and overflow flags dropped);
//! - `scf.for` -> `qd.range_for` (a step other than 1 through a trip count), `scf.while` ->
//!   `qd.while`, `scf.if` -> `qd.if`; values carried by a loop (`iter_args`, while arguments) or
//!   yielded by an `if` live in private memory (`qd.alloca`, `qd.local_store`/`qd.local_load`),
//!   which reverse mode turns into adstacks;
//! - parallelism: a function whose top level holds only `scf.parallel` loops and straight-line
//!   code keeps it: each top-level `scf.parallel` is a parallel `qd.range_for` (its inner
//!   dimensions serial, per thread). Any other function is serial as written: its whole body runs
//!   in one thread (a `qd.range_for` of one iteration), since qd runs top-level loops in
//!   parallel.
//!
//! The qd text this writes is parsed and verified by qd before it is returned, and printed by
//! qd's printer. Anything outside the subset is a located error at the MLIR op.

mod ops;

use crate::context::MlirContext;
use melior::ir::block::BlockLike;
use melior::ir::operation::OperationLike;
use melior::ir::r#type::{MemRefType, ShapedTypeLike, TypeLike};
use melior::ir::{BlockRef, Module, OperationRef, RegionLike, Type, ValueLike};
use std::collections::HashMap;

/// A located error in the MLIR input, rendered as `file:line:col: error: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportError(pub String);

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub(crate) type R<T> = Result<T, ImportError>;

/// A qd type of an imported value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum QTy {
    /// A scalar (`f32`, `i32`, `i1`...).
    Scalar(String),
    /// An ndarray of this rank and element type.
    Nd { rank: usize, elem: String },
}

impl QTy {
    pub fn text(&self) -> String {
        match self {
            QTy::Scalar(s) => s.clone(),
            QTy::Nd { rank, elem } => format!("!qd.ndarray<{}{elem}>", "?x".repeat(*rank)),
        }
    }
    pub fn scalar(&self) -> Option<&str> {
        match self {
            QTy::Scalar(s) => Some(s),
            QTy::Nd { .. } => None,
        }
    }
}

/// Imports the MLIR module `source` (named `file` in messages) as the text of a qd module.
pub fn import_text(source: &str, file: &str) -> Result<String, ImportError> {
    // MLIR's parser takes a C string: a NUL byte would end it early (and melior panics on one).
    if let Some(at) = source.find('\0') {
        let line = source[..at].matches('\n').count() + 1;
        let col = at - source[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
        return Err(ImportError(format!(
            "{file}:{line}:{col}: error: the input contains a NUL byte\n"
        )));
    }
    let mcx = MlirContext::new();
    let Some(module) = Module::parse(&mcx.cx, source) else {
        let m = mcx.take_messages();
        return Err(ImportError(rename(&m, file)));
    };
    if !module.as_operation().verify() {
        return Err(ImportError(rename(&mcx.take_messages(), file)));
    }
    let mut im = Importer {
        file: file.to_string(),
        out: String::new(),
        names: HashMap::new(),
        consts: HashMap::new(),
        next: 0,
        indent: 2,
    };
    im.out.push_str("module {\n");
    let body = module.body();
    let mut op = body.first_operation();
    while let Some(o) = op {
        match op_name(&o).as_str() {
            "func.func" => im.func(&o)?,
            name => {
                return Err(im.at(
                    &o,
                    format!("the MLIR import takes func.func ops, got '{name}'"),
                ))
            }
        }
        op = o.next_in_block();
    }
    im.out.push_str("}\n");
    // qd parses and verifies what was written; a failure here is a bug of the import.
    let mut ctx = qd_dialects::context();
    let Some(m) = qd_ir::text::parse_source(&mut ctx, &im.out, file) else {
        let mut sm = qd_ir::text::SourceMgr::new();
        sm.add_buffer(file, &im.out);
        let msgs: String = ctx
            .diagnostics()
            .iter()
            .map(|d| sm.render(&ctx, d))
            .collect();
        return Err(ImportError(format!(
            "{file}: error: internal error: the imported qd module does not verify:\n{msgs}\n{}",
            im.out
        )));
    };
    Ok(qd_ir::text::print_op(&ctx, m, &Default::default()) + "\n")
}

/// MLIR's messages for an input parsed from a string name it `-`; they name `file` instead.
fn rename(messages: &str, file: &str) -> String {
    let mut s = String::new();
    for line in messages.lines() {
        // `loc("-":3:7): message` -> `file:3:7: error: message`.
        let rest = line
            .strip_prefix("loc(\"-\":")
            .and_then(|r| r.split_once("): "));
        match rest {
            Some((lc, msg)) => s.push_str(&format!("{file}:{lc}: error: {msg}\n")),
            None => s.push_str(&format!("{file}: error: {line}\n")),
        }
    }
    if s.is_empty() {
        s = format!("{file}: error: MLIR cannot parse the input\n");
    }
    s
}

pub(crate) fn op_name(op: &OperationRef<'_, '_>) -> String {
    op.name()
        .as_string_ref()
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// The state of one import.
pub(crate) struct Importer {
    pub file: String,
    pub out: String,
    /// qd names and types of MLIR values, by their address.
    pub names: HashMap<usize, (String, QTy)>,
    /// Integer constants (`arith.constant`), by value address.
    pub consts: HashMap<usize, i64>,
    pub next: usize,
    pub indent: usize,
}

pub(crate) fn key<'c, V: ValueLike<'c>>(v: &V) -> usize {
    v.to_raw().ptr as usize
}

impl Importer {
    /// An error located at `op`'s line and column in the input.
    pub fn at(&self, op: &OperationRef<'_, '_>, msg: impl Into<String>) -> ImportError {
        let loc = op.location().to_string();
        // `loc("-":3:7)`.
        let lc = loc
            .strip_prefix("loc(\"")
            .and_then(|r| r.split_once("\":"))
            .and_then(|(_, r)| r.strip_suffix(')'))
            .map(str::to_string);
        match lc {
            Some(lc) => ImportError(format!("{}:{lc}: error: {}\n", self.file, msg.into())),
            None => ImportError(format!("{}: error: {}\n", self.file, msg.into())),
        }
    }

    /// A fresh qd value name.
    pub fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    pub fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// The qd type of an MLIR type; `index` is i32.
    pub fn qty(&self, op: &OperationRef<'_, '_>, t: Type<'_>) -> R<QTy> {
        if t.is_mem_ref() {
            let m = MemRefType::try_from(t).map_err(|_| self.at(op, "a memref type"))?;
            let elem = self.qty(op, m.element())?;
            let QTy::Scalar(elem) = elem else {
                return Err(self.at(op, "a memref of memrefs"));
            };
            if elem == "i1" {
                return Err(self.at(op, "the MLIR import does not take memrefs of i1"));
            }
            return Ok(QTy::Nd {
                rank: m.rank(),
                elem,
            });
        }
        if t.is_index() {
            return Ok(QTy::Scalar("i32".into()));
        }
        let s = t.to_string();
        match s.as_str() {
            "i1" | "i8" | "i16" | "i32" | "i64" | "f16" | "f32" | "f64" => Ok(QTy::Scalar(s)),
            _ => Err(self.at(op, format!("the MLIR import does not take the type '{s}'"))),
        }
    }

    /// The qd name and type of `v` (defined before its use: MLIR verified dominance).
    pub fn val<'c, V: ValueLike<'c>>(&self, op: &OperationRef<'_, '_>, v: &V) -> R<(String, QTy)> {
        self.names.get(&key(v)).cloned().ok_or_else(|| {
            self.at(
                op,
                "internal error: a value used before the import named it",
            )
        })
    }

    /// A `func.func` -> a `qd.kernel`.
    fn func(&mut self, f: &OperationRef<'_, '_>) -> R<()> {
        let name = f
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .map(|s| s.value().to_string())
            .ok_or_else(|| self.at(f, "a func.func without a name"))?;
        let region = f
            .region(0)
            .map_err(|_| self.at(f, "a func.func without a body"))?;
        let Some(block) = region.first_block() else {
            return Err(self.at(f, format!("func @{name} is a declaration: it has no body")));
        };
        if block.next_in_region().is_some() {
            return Err(self.at(
                f,
                "the MLIR import takes functions of one block (structured control flow, not cf)",
            ));
        }
        let mut params = Vec::new();
        for i in 0..block.argument_count() {
            let a = block
                .argument(i)
                .map_err(|_| self.at(f, "a block argument"))?;
            let t = self.qty(f, a.r#type())?;
            let n = format!("%a{i}");
            params.push(format!("{n}: {}", t.text()));
            self.names.insert(key(&a), (n, t));
        }
        self.line(&format!("qd.kernel @{name}({}) {{", params.join(", ")));
        self.indent += 1;
        let serial = !ops::parallel_top_level(&block);
        if serial {
            // The whole body in one thread: qd runs top-level loops in parallel.
            let (c0, c1, t) = (self.fresh(), self.fresh(), self.fresh());
            self.line(&format!("{c0} = arith.constant 0 : i32"));
            self.line(&format!("{c1} = arith.constant 1 : i32"));
            self.line(&format!("qd.range_for {t} = {c0} to {c1} : i32 {{"));
            self.indent += 1;
        }
        let term = self.block(&block)?;
        if let Some(t) = term {
            if op_name(&t) != "func.return" || t.operand_count() != 0 {
                return Err(self.at(
                    &t,
                    "a kernel returns nothing: write results to a memref argument",
                ));
            }
        }
        if serial {
            self.indent -= 1;
            self.line("}");
        }
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    /// Imports every op of `block` but its terminator, which it returns.
    pub fn block<'c, 'a>(&mut self, block: &BlockRef<'c, 'a>) -> R<Option<OperationRef<'c, 'a>>> {
        let mut op = block.first_operation();
        while let Some(o) = op {
            let next = o.next_in_block();
            if next.is_none() {
                let n = op_name(&o);
                if matches!(
                    n.as_str(),
                    "func.return" | "scf.yield" | "scf.condition" | "scf.reduce"
                ) {
                    return Ok(Some(o));
                }
            }
            ops::op(self, &o)?;
            op = next;
        }
        Ok(None)
    }
}
