//! The parser's core: token cursor, source locations, errors, nesting limit, the top level
//! (aliases, implicit module) and location syntax.

use super::lexer::{self, Tok, Token};
use super::lines::{At, Lines};
use super::scope::Scopes;
use crate::builder::OperationState;
use crate::builtin::MODULE;
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::fast_hash::FastMap;
use crate::location::LocData;
use crate::registry::OpTraits;
use std::borrow::Cow;

/// How deep regions, types, attributes and locations may nest before parsing stops with an error
/// (instead of overflowing the stack).
pub(crate) const MAX_DEPTH: u32 = 200;

/// Most entries a value memo takes: recurring spellings fit, while unique ones (which gain
/// nothing) cannot grow a large table.
pub(crate) const MEMO_LIMIT: usize = 4096;

/// The value of a `#name = ...` alias.
#[derive(Copy, Clone)]
pub(crate) enum Alias {
    Attr(Attribute),
    Loc(Location),
}

/// Something whose location is `loc(#alias)` with the alias defined later in the file (MLIR prints
/// location aliases at the end).
#[derive(Copy, Clone)]
pub(crate) enum LocTarget {
    Op(OpId),
    Arg(Value),
}

/// A parsed `loc(...)`: a location, or a reference to a location alias not defined yet.
#[derive(Copy, Clone)]
pub(crate) enum LocSpec<'a> {
    Loc(Location),
    Deferred(&'a str, usize),
}

/// Memo tables that spare repeated interning (and its hashing and allocation) for text that
/// recurs in almost every op: builtin type keywords, function types, op names, dictionary keys
/// and strings.
#[derive(Default)]
pub(crate) struct Memo<'a> {
    pub keyword_types: FastMap<&'a str, Type>,
    /// Function types by `[#inputs, input..., result...]` (type indices).
    pub fn_types: FastMap<Vec<u32>, Type>,
    pub fn_key: Vec<u32>,
    /// A stack of types being collected (function type inputs and results).
    pub type_stack: Vec<Type>,
    /// Generic op name token -> (name, traits when registered).
    pub ops: FastMap<&'a str, (Cow<'a, str>, Option<OpTraits>)>,
    pub idents: FastMap<&'a str, Ident>,
    pub strings: FastMap<&'a str, Attribute>,
    /// Numeric attributes by (spelling, type) and dialect attributes by spelling.
    pub numbers: FastMap<(&'a str, Type), Attribute>,
    pub dialect_attrs: FastMap<&'a str, Attribute>,
    /// A stack of SSA uses `(name, number, offset)` of generic ops being parsed.
    pub use_stack: Vec<(&'a str, u32, usize)>,
}

pub(crate) struct Parser<'a, 'c> {
    pub(crate) ctx: &'c mut Context,
    pub(crate) src: &'a str,
    /// The current (lookahead) token.
    pub(crate) tok: Token,
    pub(crate) lines: Lines,
    pub(crate) attr_aliases: FastMap<&'a str, Alias>,
    pub(crate) type_aliases: FastMap<&'a str, Type>,
    pub(crate) deferred_locs: Vec<(LocTarget, &'a str, usize)>,
    pub(crate) scopes: Scopes<'a>,
    depth: u32,
    /// The registered op whose custom syntax is being parsed, and its number of named results.
    pub(crate) cur_op: Option<OpName>,
    pub(crate) cur_num_results: usize,
    pub(crate) memo: Memo<'a>,
    /// The default dialect of each custom op being parsed (innermost last): an op name without
    /// `.` is looked up in it first, as MLIR's parser does with `OpAsmOpInterface`.
    pub(crate) default_dialects: Vec<&'static str>,
}

impl<'a, 'c> Parser<'a, 'c> {
    pub(crate) fn new(ctx: &'c mut Context, src: &'a str, filename: &str) -> Self {
        let file = ctx.ident(filename);
        let lines = Lines::new(file, src);
        let tok = lexer::lex(src.as_bytes(), 0);
        Parser {
            ctx,
            src,
            tok,
            lines,
            attr_aliases: FastMap::default(),
            type_aliases: FastMap::default(),
            deferred_locs: Vec::new(),
            scopes: Scopes::default(),
            depth: 0,
            cur_op: None,
            cur_num_results: 0,
            memo: Memo::default(),
            default_dialects: Vec::new(),
        }
    }

    // ----- tokens -----------------------------------------------------------------------------

    pub(crate) fn text(&self, t: Token) -> &'a str {
        &self.src[t.start..t.end]
    }
    pub(crate) fn tok_text(&self) -> &'a str {
        self.text(self.tok)
    }
    /// Consumes the current token and returns it.
    pub(crate) fn bump(&mut self) -> Token {
        let t = self.tok;
        self.tok = lexer::lex(self.src.as_bytes(), t.end);
        t
    }
    /// Re-lexes from byte offset `pos`.
    pub(crate) fn reset_to(&mut self, pos: usize) {
        self.tok = lexer::lex(self.src.as_bytes(), pos);
    }
    pub(crate) fn at(&self, k: Tok) -> bool {
        self.tok.kind == k
    }
    pub(crate) fn at_keyword(&self, kw: &str) -> bool {
        self.tok.kind == Tok::BareIdent && self.tok_text() == kw
    }
    pub(crate) fn eat(&mut self, k: Tok) -> bool {
        if self.at(k) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub(crate) fn expect(&mut self, k: Tok, msg: &str) -> DiagResult<Token> {
        if self.at(k) {
            Ok(self.bump())
        } else {
            Err(self.err(msg))
        }
    }
    /// The token after the current one (without consuming anything).
    pub(crate) fn peek(&self) -> Token {
        lexer::lex(self.src.as_bytes(), self.tok.end)
    }

    // ----- locations and errors -------------------------------------------------------------

    pub(crate) fn loc_of(&mut self, offset: usize) -> Location {
        self.lines.loc(self.ctx, offset)
    }
    /// `offset` kept as a position, made a location only if a message needs it.
    pub(crate) fn at_of(&mut self, offset: usize) -> At {
        self.lines.at(self.ctx, offset)
    }
    pub(crate) fn resolve_at(&mut self, at: At) -> Location {
        self.lines.resolve(self.ctx, at)
    }
    pub(crate) fn tok_loc(&mut self) -> Location {
        self.loc_of(self.tok.start)
    }
    pub(crate) fn err_at(&mut self, offset: usize, msg: impl Into<String>) -> Diagnostic {
        let loc = self.loc_of(offset);
        Diagnostic::error(loc, msg)
    }
    /// An error at the current token; a lexer error there takes precedence over `msg`.
    pub(crate) fn err(&mut self, msg: impl Into<String>) -> Diagnostic {
        match self.tok.kind {
            Tok::Error(m) => self.err_at(self.tok.start, m),
            _ => self.err_at(self.tok.start, msg),
        }
    }

    /// Enters one nesting level (region, type, attribute, location).
    pub(crate) fn enter(&mut self) -> DiagResult<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(format!("nesting too deep (more than {MAX_DEPTH} levels)")));
        }
        self.depth += 1;
        Ok(())
    }
    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    // ----- top level --------------------------------------------------------------------------

    /// Parses the whole buffer into a detached `builtin.module`.
    pub(crate) fn parse_top(&mut self) -> DiagResult<OpId> {
        let region = self.ctx.create_region();
        let block = self.ctx.create_block(&[]);
        self.ctx.append_block(region, block);
        self.scopes.push(region, true);
        let res = self.parse_top_items(block);
        let undefined = self.scopes.pop_region();
        let unresolved = self.scopes.pop_isolated(self.ctx);
        res?;
        if let Some(u) = undefined {
            return Err(self.err_at(
                u.offset,
                format!("reference to an undefined block '{}'", u.name),
            ));
        }
        if let Some((name, loc)) = unresolved {
            return Err(Diagnostic::error(
                loc,
                format!("use of undeclared SSA value name '{name}'"),
            ));
        }
        self.resolve_deferred_locs()?;

        let ops = self.ctx.block_op_vec(block);
        if let [op] = ops[..] {
            let is_module = self.ctx.name(op) == MODULE
                && self.ctx.regions(op).len() == 1
                && self.ctx.region_blocks(self.ctx.region(op, 0)).len() == 1;
            if is_module {
                self.ctx.detach_op(op);
                return Ok(op);
            }
        }
        // The implicit module is at line 0, column 0 (mlir-opt's `"file":0:0`).
        let loc = self.ctx.intern_loc(LocData::FileLineCol {
            file: self.lines.file(),
            line: 0,
            col: 0,
        });
        Ok(self
            .ctx
            .create_op(OperationState::new(MODULE, loc).region(region)))
    }

    fn parse_top_items(&mut self, block: BlockId) -> DiagResult<()> {
        loop {
            match self.tok.kind {
                Tok::Eof => return Ok(()),
                Tok::HashIdent => self.parse_attr_alias_def()?,
                Tok::ExclaimIdent => self.parse_type_alias_def()?,
                _ => {
                    let op = self.parse_operation()?;
                    self.ctx.append_op(block, op);
                }
            }
        }
    }

    fn alias_name(&mut self, t: Token, what: &str) -> DiagResult<&'a str> {
        let name = &self.text(t)[1..];
        if name.contains('.') {
            return Err(self.err_at(
                t.start,
                format!("{what} names with a '.' are reserved for dialect-defined names"),
            ));
        }
        Ok(name)
    }

    fn parse_attr_alias_def(&mut self) -> DiagResult<()> {
        let t = self.bump();
        let name = self.alias_name(t, "attribute")?;
        if self.attr_aliases.contains_key(name) {
            return Err(self.err_at(
                t.start,
                format!("redefinition of attribute alias id '{name}'"),
            ));
        }
        self.expect(Tok::Equal, "expected '=' in attribute alias definition")?;
        let value = if self.at_keyword("loc") {
            match self.parse_loc_spec()? {
                LocSpec::Loc(l) => Alias::Loc(l),
                LocSpec::Deferred(n, off) => {
                    return Err(self.err_at(off, format!("undefined symbol alias id '{n}'")))
                }
            }
        } else {
            Alias::Attr(self.parse_attr(None)?)
        };
        self.attr_aliases.insert(name, value);
        Ok(())
    }

    fn parse_type_alias_def(&mut self) -> DiagResult<()> {
        let t = self.bump();
        let name = self.alias_name(t, "type")?;
        if self.type_aliases.contains_key(name) {
            return Err(self.err_at(t.start, format!("redefinition of type alias id '{name}'")));
        }
        self.expect(Tok::Equal, "expected '=' in type alias definition")?;
        let ty = self.parse_type()?;
        self.type_aliases.insert(name, ty);
        Ok(())
    }

    fn resolve_deferred_locs(&mut self) -> DiagResult<()> {
        for (target, name, off) in std::mem::take(&mut self.deferred_locs) {
            let loc = match self.attr_aliases.get(name) {
                Some(Alias::Loc(l)) => *l,
                Some(Alias::Attr(_)) => {
                    return Err(self.err_at(off, format!("'#{name}' is not a location alias")))
                }
                None => return Err(self.err_at(off, format!("undefined symbol alias id '{name}'"))),
            };
            match target {
                LocTarget::Op(op) => self.ctx.set_loc(op, loc),
                LocTarget::Arg(v) => self.ctx.values[v.index()].loc = Some(loc),
            }
        }
        Ok(())
    }

    /// The value of a string token.
    pub(crate) fn string_value(&mut self, t: Token) -> DiagResult<Cow<'a, str>> {
        match lexer::unescape(self.text(t)) {
            Some(s) => Ok(s),
            None => Err(self.err_at(t.start, "string literal is not valid UTF-8")),
        }
    }
}
