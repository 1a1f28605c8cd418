//! Syntax of the builtin shaped types, as MLIR's TypeParser: `vector<2x[4]xf32>`,
//! `tensor<4x?xf32, encoding>`, `tensor<*xf32>`, `memref<4x?xf32, layout, memory_space>`,
//! `memref<*xf32, memory_space>`. Dimension lists are read token by token, splitting tokens such
//! as `xf32` or `0x4` at their `x` (re-lexing after it), as MLIR's lexer does.

use super::lexer::Tok;
use super::parser::Parser;
use crate::attributes::AttrData;
use crate::diagnostics::DiagResult;
use crate::entity::{Attribute, Type};
use crate::shaped_types::{MemRefType, TensorType, VectorType, DYNAMIC};
use crate::types::TypeData;

/// Which of the three shaped types is being parsed.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum ShapedKind {
    Vector,
    Tensor,
    MemRef,
}

impl ShapedKind {
    pub(crate) fn from_keyword(kw: &str) -> Option<Self> {
        match kw {
            "vector" => Some(ShapedKind::Vector),
            "tensor" => Some(ShapedKind::Tensor),
            "memref" => Some(ShapedKind::MemRef),
            _ => None,
        }
    }
}

impl<'a, 'c> Parser<'a, 'c> {
    /// The current token is `vector`, `tensor` or `memref`.
    pub(crate) fn parse_shaped_type(&mut self, kind: ShapedKind) -> DiagResult<Type> {
        let kw = self.bump();
        let name = self.text(kw);
        self.expect(Tok::Less, &format!("expected '<' in {name} type"))?;
        let data = match kind {
            ShapedKind::Vector => self.parse_vector_body(kw.start)?,
            ShapedKind::Tensor => self.parse_tensor_body()?,
            ShapedKind::MemRef => self.parse_memref_body(kw.start)?,
        };
        Ok(self.ctx.intern_type(data))
    }

    /// `complex<T>` (T an integer or float type) or `tuple<T, ...>` (the current token is the
    /// keyword).
    pub(crate) fn parse_complex_or_tuple(&mut self) -> DiagResult<Type> {
        let kw = self.bump();
        let complex = self.text(kw) == "complex";
        let what = if complex { "complex" } else { "tuple" };
        self.expect(Tok::Less, &format!("expected '<' in {what} type"))?;
        let data = if complex {
            let off = self.tok.start;
            let elem = self.parse_element_type()?;
            let td = self.ctx.type_data(elem);
            if !(td.is_integer() || td.is_float()) {
                return Err(self.err_at(off, "invalid element type for complex"));
            }
            TypeData::Complex(elem)
        } else {
            let mut types = Vec::new();
            if !self.at(Tok::Greater) {
                loop {
                    types.push(self.parse_type()?);
                    if !self.eat(Tok::Comma) {
                        break;
                    }
                }
            }
            TypeData::Tuple(types)
        };
        self.expect(Tok::Greater, &format!("expected '>' in {what} type"))?;
        Ok(self.ctx.intern_type(data))
    }

    fn parse_vector_body(&mut self, kw_start: usize) -> DiagResult<TypeData> {
        let (shape, scalable) = self.parse_dim_list(false, true)?;
        let elem = self.parse_element_type()?;
        self.expect(Tok::Greater, "expected '>' in vector type")?;
        if shape.iter().any(|&d| d <= 0) {
            let dims = shape.iter().map(|d| d.to_string()).collect::<Vec<_>>();
            return Err(self.err_at(
                kw_start,
                format!(
                    "vector types must have positive constant sizes but got {}",
                    dims.join(", ")
                ),
            ));
        }
        let td = self.ctx.type_data(elem);
        if !(td.is_integer() || td.is_index() || td.is_float()) {
            return Err(self.err_at(
                kw_start,
                "failed to verify 'elementType': VectorElementTypeInterface instance",
            ));
        }
        Ok(TypeData::Vector(VectorType {
            shape,
            scalable,
            elem,
        }))
    }

    fn parse_tensor_body(&mut self) -> DiagResult<TypeData> {
        let shape = self.parse_ranked_or_unranked()?;
        let elem_off = self.tok.start;
        let elem = self.parse_element_type()?;
        let mut encoding = None;
        // MLIR's encoding is an optional attribute, which `strided<...>` cannot start.
        if self.eat(Tok::Comma) && !self.at_keyword("strided") {
            encoding = Some(self.parse_attr(None)?);
        }
        self.expect(Tok::Greater, "expected '>' in tensor type")?;
        if encoding.is_some() && shape.is_none() {
            return Err(self.err("cannot apply encoding to unranked tensor"));
        }
        let valid = !matches!(
            self.ctx.type_data(elem),
            TypeData::None
                | TypeData::Function { .. }
                | TypeData::Tensor(_)
                | TypeData::MemRef(_)
                | TypeData::Tuple(_)
        );
        if !valid {
            return Err(self.err_at(elem_off, "invalid tensor element type"));
        }
        Ok(TypeData::Tensor(TensorType {
            shape,
            elem,
            encoding,
        }))
    }

    fn parse_memref_body(&mut self, kw_start: usize) -> DiagResult<TypeData> {
        let shape = self.parse_ranked_or_unranked()?;
        let elem_off = self.tok.start;
        let elem = self.parse_element_type()?;
        let valid = matches!(
            self.ctx.type_data(elem),
            TypeData::Integer { .. }
                | TypeData::Index
                | TypeData::Float(_)
                | TypeData::Complex(_)
                | TypeData::Vector(_)
                | TypeData::MemRef(_)
                | TypeData::Dialect { .. }
        );
        if !valid {
            return Err(self.err_at(elem_off, "invalid memref element type"));
        }
        let (mut layout, mut space): (Option<Attribute>, Option<Attribute>) = (None, None);
        while self.eat(Tok::Comma) {
            let a = self.parse_attr(None)?;
            // Errors point after the attribute, as MLIR's.
            let off = self.tok.start;
            if matches!(
                self.ctx.attr_data(a),
                AttrData::AffineMap(_) | AttrData::Strided { .. }
            ) {
                if space.is_some() {
                    return Err(self.err_at(off, "expected memory space to be last in memref type"));
                }
                layout = Some(a);
            } else {
                if space.is_some() {
                    return Err(self.err_at(off, "multiple memory spaces specified in memref type"));
                }
                space = Some(a);
            }
        }
        self.expect(Tok::Greater, "expected '>' in memref type")?;
        if layout.is_some() && shape.is_none() {
            return Err(self.err("cannot have affine map for unranked memref type"));
        }
        if let Some(s) = space {
            if !supported_memory_space(self.ctx.attr_data(s)) {
                return Err(self.err_at(kw_start, "unsupported memory space Attribute"));
            }
            // The default memory space (an integer 0) is not kept, as MLIR drops it.
            if matches!(
                self.ctx.attr_data(s),
                AttrData::Integer { value: 0, .. } | AttrData::Bool(false)
            ) {
                space = None;
            }
        }
        if let Some(l) = layout {
            let rank = shape.as_ref().map_or(0, Vec::len);
            match self.ctx.attr_data(l) {
                AttrData::Strided { strides, .. } if strides.len() != rank => {
                    return Err(
                        self.err_at(kw_start, "expected the number of strides to match the rank")
                    );
                }
                AttrData::AffineMap(m) if m.num_dims as usize != rank => {
                    let m = format!(
                        "memref layout mismatch between rank and affine map: {} != {}",
                        rank, m.num_dims
                    );
                    return Err(self.err_at(kw_start, m));
                }
                // The identity map is the default layout, which MLIR does not keep.
                AttrData::AffineMap(m) if m.is_identity() => layout = None,
                _ => {}
            }
        }
        Ok(TypeData::MemRef(MemRefType {
            shape,
            elem,
            layout,
            memory_space: space,
        }))
    }

    /// `*x` (unranked: None) or a dimension list with `?` allowed.
    fn parse_ranked_or_unranked(&mut self) -> DiagResult<Option<Vec<i64>>> {
        if self.eat(Tok::Star) {
            self.parse_x_in_dim_list()?;
            return Ok(None);
        }
        Ok(Some(self.parse_dim_list(true, false)?.0))
    }

    /// `4x?x[8]x` (each dim followed by `x`), stopping at the element type.
    pub(crate) fn parse_dim_list(
        &mut self,
        allow_dynamic: bool,
        allow_scalable: bool,
    ) -> DiagResult<(Vec<i64>, Vec<bool>)> {
        let (mut shape, mut scalable) = (Vec::new(), Vec::new());
        loop {
            let dim = match self.tok.kind {
                Tok::Integer => self.parse_dim_integer()?,
                Tok::Question if allow_dynamic => {
                    self.bump();
                    DYNAMIC
                }
                Tok::LSquare if allow_scalable => {
                    self.bump();
                    if !self.at(Tok::Integer) {
                        return Err(self.err("expected integer value"));
                    }
                    let d = self.parse_dim_integer()?;
                    self.expect(Tok::RSquare, "missing ']' closing scalable dimension")?;
                    scalable.resize(shape.len(), false);
                    scalable.push(true);
                    shape.push(d);
                    self.parse_x_in_dim_list()?;
                    continue;
                }
                _ => break,
            };
            shape.push(dim);
            self.parse_x_in_dim_list()?;
        }
        if allow_scalable {
            scalable.resize(shape.len(), false);
        }
        Ok((shape, scalable))
    }

    /// A decimal dim; a token such as `0x4` or `0xf32` is the dim 0 followed by `x...`.
    fn parse_dim_integer(&mut self) -> DiagResult<i64> {
        let t = self.tok;
        let text = self.text(t);
        if text.starts_with("0x") {
            self.reset_to(t.start + 1);
            return Ok(0);
        }
        self.bump();
        match text.parse::<i64>() {
            Ok(d) => Ok(d),
            Err(_) => Err(self.err_at(t.start, "invalid dimension")),
        }
    }

    /// The `x` after a dim: a bare identifier `x` or one that starts with `x` (`xf32`).
    fn parse_x_in_dim_list(&mut self) -> DiagResult<()> {
        if self.at(Tok::BareIdent) && self.tok_text().starts_with('x') {
            let t = self.tok;
            self.reset_to(t.start + 1);
            return Ok(());
        }
        Err(self.err("expected 'x' in dimension list"))
    }

    fn parse_element_type(&mut self) -> DiagResult<Type> {
        if !self.at_type_start() {
            return Err(self.err("expected non-function type"));
        }
        self.parse_type()
    }
}

/// MLIR's `isSupportedMemorySpace`: integers, strings, dictionaries and attributes of a
/// (registered) non-builtin dialect.
fn supported_memory_space(a: &AttrData) -> bool {
    matches!(
        a,
        AttrData::Integer { .. }
            | AttrData::WideInteger { .. }
            | AttrData::Bool(_)
            | AttrData::String(_)
            | AttrData::Dict(_)
            | AttrData::Typed(_)
    )
}
