//! Declarative ops (MLIR's ODS, pliron's typed op wrappers): one [`declare_op!`](crate::declare_op)
//! per op generates
//!
//! - the wrapper `XOp(pub OpId)` with `NAME`, `from_op` (checks the name), `op`, `loc`;
//! - an accessor per operand group (`Value`, `Option<Value>` or `Vec<Value>` by arity), per result
//!   group (likewise) and per region (`RegionId`);
//! - a typed getter per property (`K::Value` when required, `Option<K::Value>` when optional),
//!   and a setter when the declaration names one (`=> set_x`; an optional one takes `Option`
//!   and removes the property on `None`). `p as getter:` names the getter; `p as _:` generates
//!   none (the dialect writes its own, e.g. one that must not panic on unverified IR);
//! - `build(b, operands..., result types..., properties..., loc)`: results whose type is inferred
//!   (`= f(source)`) take no parameter (an inferred optional result takes a `bool`: create it or
//!   not); regions are created empty. `builder: create,` renames it (to keep a hand-written
//!   `build` with another signature); `builder: none,` generates none;
//! - `op_info()`: the [`OpInfo`](crate::OpInfo) for the dialect's op list, with the structural
//!   verifier ([`verify`]), the declaration's own verify hook after it, the traits, and the custom
//!   form. Chain `.fold(..)`, `.canonicalization(..)`, `.interface::<..>(..)` on it as usual.
//!
//! # Grammar
//!
//! ```text
//! declare_op! {
//!     /// docs
//!     pub struct XOp = "dialect.x" {
//!         summary: "...",
//!         traits: [OpTraits::READ_ONLY, ...],              // optional
//!         operands: [name: ARITY(CONSTRAINT) (= infer_fn(source))?, ...],    // optional
//!         results: [name: ARITY(CONSTRAINT) (= infer_fn(source))?, ...],     // optional
//!         regions: [name (as getter)?: any | single_block, ...], // optional
//!         properties: [name (as getter)?: required|optional(Kind) (=> setter)?, ...], // optional
//!         builder: create | none,                          // optional: the builder's name
//!         format: "assembly format",                       // or
//!         syntax: (parse_fn, print_fn),                    // hand-written custom form; or neither
//!         verify: extra_verify_fn,                         // optional, runs after the structure
//!         verify_symbol_uses: uses_fn,                     // optional, runs after verify
//!         asm_result_names: names_fn,                      // optional, result name hints
//!     }
//! }
//! ```
//!
//! - `verify_symbol_uses: f` (`f(ctx, op, &mut SymbolTableCollection)`, MLIR's
//!   `verifySymbolUses`) holds the checks that resolve symbols: resolve through the collection,
//!   never with `lookup_symbol_from`, which scans the table per call. It runs only when `verify`
//!   passed. With `OpTraits::SYMBOL_USER` it also reports unresolved references itself and the
//!   verifier's generic check skips the op (the trait requires the hook).
//! - `asm_result_names: f` (`f(ctx, op, &mut |result, hint| ..)`, MLIR's `getAsmResultNames`)
//!   names results in the custom form (`%cst`, `%c0_i32`); the printer uniques the hints.
//! - Sections come in this order; all but `summary` may be left out. `traits` are `const`
//!   values (`OpTraits::X`, or a dialect's `const` union).
//! - The region and property names are also what messages print (`expects its body region to
//!   have at most one block`); a keyword such as `type` is a valid property name (with `as _`).
//! - ARITY is `single`, `optional` or `variadic`; at most one non-single group among operands (and
//!   among results). CONSTRAINT is a [`TypeConstraint`] (`constraint::ANY`, `constraint::I32`, or
//!   the dialect's own, e.g. "an !adstack.stack" with a custom `type($x)` form).
//! - `= f(source)`: the type is `f(ctx, type of source)` (a single operand or result), as ODS's
//!   `TypesMatchWith`. The parser uses it for types the text does not spell; the builder for
//!   results. It is not checked by the verifier: check the relation in the verify hook (with the
//!   message you want).
//! - Kind is a [`PropKind`]: [`prop::Int`], [`prop::NonNeg<T>`], [`prop::Str`],
//!   [`prop::SymbolName`], [`prop::SymbolRef`], [`prop::TypeAttr`], [`prop::Flag`],
//!   [`prop::BoolArray`], [`prop::DenseI64Array`], [`prop::AnyAttr`], or the dialect's own.
//! - Format: see [`format`]: `` `lit` ``, `$operand`, `$prop`, `$region`, `type($value)`,
//!   `attr-dict`, and optional groups `(`else` $else^)?`. Every operand, region and `attr-dict`
//!   appear once; every type must be determined (by `type(..)`, inference or a buildable
//!   constraint such as `I32`). A malformed declaration panics when its `op_info()` is built, so
//!   any test that registers the dialect catches it.
//!
//! # Example
//!
//! ```
//! use qd_ir::op_def::{constraint, prop};
//! use qd_ir::text::{parse_source, print_op, PrintOptions};
//! use qd_ir::{Context, DiagResult, DialectDef, OpId, OpTraits, Type};
//!
//! /// The result has the source's type.
//! fn same(_: &mut Context, t: Type) -> Type {
//!     t
//! }
//!
//! /// What the structure cannot say, worded as you like.
//! fn verify_get(ctx: &Context, op: OpId) -> DiagResult<()> {
//!     if GetOp(op).index(ctx) > 100 {
//!         return Err(qd_ir::verify_helpers::op_error(ctx, op, "expects an index up to 100"));
//!     }
//!     Ok(())
//! }
//!
//! qd_ir::declare_op! {
//!     /// `%r = demo.get %v, 3 (+ %o)? {attrs} : f32`.
//!     pub struct GetOp = "demo.get" {
//!         summary: "reads one element",
//!         traits: [OpTraits::PURE],
//!         operands: [source: single(constraint::FLOAT), offset: optional(constraint::I32)],
//!         results: [result: single(constraint::FLOAT) = same(source)],
//!         properties: [index: required(prop::NonNeg<i64>) => set_index,
//!                      tag: optional(prop::Str)],
//!         format: "$source `,` $index (`+` $offset^)? attr-dict `:` type($source)",
//!         verify: verify_get,
//!     }
//! }
//!
//! let mut ctx = Context::new();
//! let mut d = DialectDef::new("demo");
//! d.ops = vec![GetOp::op_info()];
//! ctx.register_dialect(d);
//! ctx.allow_unregistered = true; // for the unregistered ops that make %v and %o
//! let src = "%v = \"x.src\"() : () -> f32\n%o = \"x.off\"() : () -> i32\n\
//!            %0 = demo.get %v, 3 + %o {tag = \"t\"} : f32\n";
//! let m = parse_source(&mut ctx, src, "demo.mlir").expect("parses");
//! qd_ir::verifier::verify(&ctx, m).expect("verifies");
//! let text = print_op(&ctx, m, &PrintOptions::default());
//! assert!(text.contains("demo.get %0, 3 + %1 {tag = \"t\"} : f32"), "{text}");
//! ```
//!
//! Building one: `GetOp::build(&mut b, v, None, 3, None, loc)` (operands, then properties; the
//! result type is inferred from `v`), then `g.index(ctx) == 3`, `g.set_index(ctx, 4)`,
//! `g.offset(ctx) == None`, `g.result(ctx)`. The `test` dialect of `op_def::tests` exercises
//! every piece; adstack, ad and qd declare their ops with it.

mod asm;
pub mod constraint;
mod def;
pub mod format;
mod macros;
pub mod prop;
pub mod verify;

pub use constraint::TypeConstraint;
pub use def::{position, segment, Arity, InferDef, OpDef, PropDef, RegionDef, Syntax, ValueDef};
pub use format::Format;
pub use prop::{PropKind, PropSpec};
pub use verify::verify_structure;

#[cfg(test)]
mod tests;
