//! The interfaces through which an op's custom syntax is parsed and printed (MLIR's
//! `OpAsmParser`/`OpAsmPrinter`). The text module implements them; dialects code against them.

use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::registry::OpInfo;

/// An SSA use not yet resolved to a value: `%name` or `%name#number`. It refers to the name by
/// its place in the text being parsed (made by [`OpAsmParser::parse_operand`] and resolved by the
/// same parser): a use then costs neither a string nor an interned location, which only a
/// message needs ([`OpAsmParser::operand_loc`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct UnresolvedOperand {
    /// Byte range of `%name` in the parser's text.
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) number: u32,
    /// A location given in the text (an argument's `loc(...)`); None: the position of the name.
    pub loc: Option<Location>,
}

impl UnresolvedOperand {
    /// The `N` of `%name#N` (0 for `%name`).
    pub fn number(&self) -> u32 {
        self.number
    }
}

/// A value definition in custom syntax, such as a loop induction variable: `%i` or `%i : i32`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Argument {
    pub name: UnresolvedOperand,
    pub ty: Option<Type>,
}

/// Delimiters around a list.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Delimiter {
    None,
    Paren,
    Square,
    Braces,
    Angle,
    OptionalParen,
    OptionalSquare,
}

/// Parsing primitives shared by op, type and attribute syntax.
pub trait AsmParser {
    fn ctx(&mut self) -> &mut Context;
    fn ctx_ref(&self) -> &Context;
    /// Location of the next token.
    fn current_loc(&mut self) -> Location;
    /// An error diagnostic at the next token.
    fn error(&mut self, message: &str) -> Diagnostic;

    /// Punctuation such as `(`, `)`, `[`, `]`, `{`, `}`, `<`, `>`, `,`, `:`, `=`, `->`, `?`, `*`, `+`, `-`, `...`.
    fn parse_punct(&mut self, p: &str) -> DiagResult<()>;
    fn parse_optional_punct(&mut self, p: &str) -> bool;
    /// A bare identifier equal to `kw`.
    fn parse_keyword(&mut self, kw: &str) -> DiagResult<()>;
    fn parse_optional_keyword(&mut self, kw: &str) -> bool;
    /// Any bare identifier.
    fn parse_any_keyword(&mut self) -> DiagResult<String>;
    fn parse_optional_any_keyword(&mut self) -> Option<String>;
    /// A (possibly negative) integer literal.
    fn parse_integer(&mut self) -> DiagResult<i64>;
    fn parse_optional_integer(&mut self) -> DiagResult<Option<i64>>;
    /// A float or integer literal, as f64.
    fn parse_float(&mut self) -> DiagResult<f64>;
    fn parse_string(&mut self) -> DiagResult<String>;
    /// `@name` or `@"name"`.
    fn parse_symbol_name(&mut self) -> DiagResult<String>;
    fn parse_optional_symbol_name(&mut self) -> Option<String>;
    fn parse_type(&mut self) -> DiagResult<Type>;
    fn parse_optional_type(&mut self) -> DiagResult<Option<Type>>;
    /// An attribute; when `ty` is given, a bare numeric literal takes that type, otherwise a
    /// numeric literal may be followed by `: type`.
    fn parse_attribute(&mut self, ty: Option<Type>) -> DiagResult<Attribute>;
    /// `{name = attr, ...}` when present; entries are appended to `out`.
    fn parse_optional_attr_dict(&mut self, out: &mut Vec<(Ident, Attribute)>) -> DiagResult<()>;
    /// A dimension list followed by `x`: `16x`, `4x10x`, `?x?x`; stops before the element type.
    /// `?` is allowed only with `allow_dynamic`.
    fn parse_dimension_list(&mut self, allow_dynamic: bool) -> DiagResult<Vec<Option<i64>>>;
    /// `: type`.
    fn parse_colon_type(&mut self) -> DiagResult<Type> {
        self.parse_punct(":")?;
        self.parse_type()
    }
}

/// Op-level parsing: SSA operands, value definitions, regions, successors.
pub trait OpAsmParser: AsmParser {
    /// Number of results named on the left of `=`.
    fn num_results(&self) -> usize;
    /// The registered op being parsed.
    fn op_info(&self) -> Option<&OpInfo>;
    fn parse_operand(&mut self) -> DiagResult<UnresolvedOperand>;
    fn parse_optional_operand(&mut self) -> DiagResult<Option<UnresolvedOperand>>;
    /// Operands separated by commas, within `delim`.
    fn parse_operand_list(&mut self, delim: Delimiter) -> DiagResult<Vec<UnresolvedOperand>>;
    /// Resolves a use to a value of type `ty` (a forward reference gets a placeholder).
    fn resolve_operand(&mut self, operand: &UnresolvedOperand, ty: Type) -> DiagResult<Value>;
    /// The location of a use (or argument), for a message.
    fn operand_loc(&mut self, operand: &UnresolvedOperand) -> Location;
    fn resolve_operands(
        &mut self,
        operands: &[UnresolvedOperand],
        tys: &[Type],
    ) -> DiagResult<Vec<Value>> {
        if operands.len() != tys.len() {
            let loc = match operands.first() {
                Some(o) => self.operand_loc(o),
                None => self.current_loc(),
            };
            return Err(Diagnostic::error(
                loc,
                format!(
                    "expected {} operand types but got {}",
                    operands.len(),
                    tys.len()
                ),
            ));
        }
        operands
            .iter()
            .zip(tys)
            .map(|(o, &t)| self.resolve_operand(o, t))
            .collect()
    }
    /// A value definition `%name`, with `: type` when `with_type`.
    fn parse_argument(&mut self, with_type: bool) -> DiagResult<Argument>;
    fn parse_optional_argument(&mut self, with_type: bool) -> DiagResult<Option<Argument>>;
    /// `(%a: T, %b: U)` (may be empty).
    fn parse_argument_list(
        &mut self,
        delim: Delimiter,
        with_type: bool,
    ) -> DiagResult<Vec<Argument>>;
    /// `{ ... }`: a region whose entry block gets `args` (each must have a type) as arguments. With
    /// no args the region may also spell out its blocks (`^bb0(...)`). An empty `{}` region gets no
    /// block unless `args` is non-empty.
    fn parse_region(&mut self, args: &[Argument]) -> DiagResult<RegionId>;
    fn parse_optional_region(&mut self, args: &[Argument]) -> DiagResult<Option<RegionId>>;
    /// `^bb` reference.
    fn parse_successor(&mut self) -> DiagResult<BlockId>;
    /// An optional `loc(...)` (such as a function argument's, after its attributes).
    fn parse_optional_location(&mut self) -> DiagResult<Option<Location>>;
}

/// Printing primitives shared by op, type and attribute syntax.
pub trait AsmPrinter {
    fn ctx(&self) -> &Context;
    fn write(&mut self, s: &str);
    fn print_type(&mut self, ty: Type);
    /// The full attribute; numeric literals carry `: type` (always, as MLIR prints them; i1
    /// integers print as `true`/`false`).
    fn print_attribute(&mut self, attr: Attribute);
    /// A numeric attribute without its `: type` suffix.
    fn print_attribute_without_type(&mut self, attr: Attribute);
    /// `@name`, quoted when needed.
    fn print_symbol_name(&mut self, name: &str);
    fn print_string(&mut self, s: &str);
    /// A dimension list with trailing `x`, such as `4x?x`.
    fn print_dimension_list(&mut self, dims: &[Option<i64>]) {
        for d in dims {
            match d {
                Some(n) => self.write(&format!("{n}x")),
                None => self.write("?x"),
            }
        }
    }
}

/// Op-level printing.
pub trait OpAsmPrinter: AsmPrinter {
    fn print_operand(&mut self, v: Value);
    fn print_operands(&mut self, vs: &[Value]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.write(", ");
            }
            self.print_operand(v);
        }
    }
    /// Prints a region; with `print_entry_args` false the entry block header is omitted (its
    /// arguments are printed by the custom syntax, as `%i` of a loop).
    fn print_region(&mut self, region: RegionId, print_entry_args: bool);
    /// `{k = v, ...}` for the discardable attributes (and properties) not in `elided`, if any.
    fn print_optional_attr_dict(&mut self, attrs: &[(Ident, Attribute)], elided: &[&str]);
    fn print_successor(&mut self, block: BlockId);
    /// ` loc(...)` of a block argument the custom syntax defines (a loop's induction variable, a
    /// kernel argument), when locations are printed; nothing otherwise.
    fn print_optional_location(&mut self, arg: Value);
}
