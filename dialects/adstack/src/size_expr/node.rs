//! The node kinds of a [`SizeExpr`](super::SizeExpr) and the integer element types of its reads.

use qd_ir::{Context, Signedness, Type, TypeData};

/// A node of an expression: its position in the flat post-order node list.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The element type of a field or ndarray read, or of a scalar argument: it bounds the read's value (its interval).
/// 64-bit unsigned elements are not representable (they do not fit the evaluator's i64).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum IntTy {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
}

impl IntTy {
    pub const ALL: [IntTy; 7] = [
        IntTy::I8,
        IntTy::I16,
        IntTy::I32,
        IntTy::I64,
        IntTy::U8,
        IntTy::U16,
        IntTy::U32,
    ];

    /// The MLIR spelling: `i32`, `ui8`.
    pub fn name(self) -> &'static str {
        match self {
            IntTy::I8 => "i8",
            IntTy::I16 => "i16",
            IntTy::I32 => "i32",
            IntTy::I64 => "i64",
            IntTy::U8 => "ui8",
            IntTy::U16 => "ui16",
            IntTy::U32 => "ui32",
        }
    }

    pub fn from_name(s: &str) -> Option<IntTy> {
        IntTy::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The code of the binary form (its position in [`IntTy::ALL`]).
    pub fn code(self) -> u32 {
        IntTy::ALL.iter().position(|&t| t == self).unwrap_or(0) as u32
    }

    pub fn from_code(c: u32) -> Option<IntTy> {
        IntTy::ALL.get(c as usize).copied()
    }

    /// The values an element of this type can hold.
    pub fn range(self) -> (i64, i64) {
        match self {
            IntTy::I8 => (i8::MIN as i64, i8::MAX as i64),
            IntTy::I16 => (i16::MIN as i64, i16::MAX as i64),
            IntTy::I32 => (i32::MIN as i64, i32::MAX as i64),
            IntTy::I64 => (i64::MIN, i64::MAX),
            IntTy::U8 => (0, u8::MAX as i64),
            IntTy::U16 => (0, u16::MAX as i64),
            IntTy::U32 => (0, u32::MAX as i64),
        }
    }

    /// The element type of an IR integer type: signless and signed integers are signed; `index`
    /// is i64. None for floats, i1, other widths and 64-bit unsigned.
    pub fn from_type(ctx: &Context, ty: Type) -> Option<IntTy> {
        match ctx.type_data(ty) {
            TypeData::Index => Some(IntTy::I64),
            TypeData::Integer { width, signedness } => {
                let unsigned = *signedness == Signedness::Unsigned;
                match (width, unsigned) {
                    (8, false) => Some(IntTy::I8),
                    (16, false) => Some(IntTy::I16),
                    (32, false) => Some(IntTy::I32),
                    (64, false) => Some(IntTy::I64),
                    (8, true) => Some(IntTy::U8),
                    (16, true) => Some(IntTy::U16),
                    (32, true) => Some(IntTy::U32),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// A binary operator node.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    /// Saturating at 0: `max(a - b, 0)`.
    Sub,
    Mul,
    Max,
    Min,
    /// `a / b` rounded up, by a positive literal `b` (the only divisor the grammar allows). A
    /// saturated dividend (`i64::MAX`, `i64::MIN`) stands for a value too large to represent, so
    /// its quotient stays saturated: a closed form `n * (n - 1) / 2` is then never below the sum
    /// it replaces.
    Div,
}

impl BinOp {
    /// The operators over any two operands (`Div` divides by literals only).
    pub const ALL: [BinOp; 5] = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Max, BinOp::Min];

    /// Applies the operator with the evaluator's saturating i64 semantics. `Div` by a
    /// non-positive `b` (which validation rules out) gives `i64::MAX`, never a panic.
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            BinOp::Add => a.saturating_add(b),
            BinOp::Sub => a.saturating_sub(b).max(0),
            BinOp::Mul => a.saturating_mul(b),
            BinOp::Max => a.max(b),
            BinOp::Min => a.min(b),
            BinOp::Div if b <= 0 => i64::MAX,
            BinOp::Div if a == i64::MAX || a == i64::MIN => a,
            BinOp::Div => a.div_euclid(b) + i64::from(a.rem_euclid(b) != 0),
        }
    }
}

/// The comparison of a [`Node::Select`], on the evaluator's i64 values.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpPred {
    Lt,
    Le,
    Eq,
    Ne,
}

impl CmpPred {
    pub const ALL: [CmpPred; 4] = [CmpPred::Lt, CmpPred::Le, CmpPred::Eq, CmpPred::Ne];

    /// The text form: `<`, `<=`, `==`, `!=`.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpPred::Lt => "<",
            CmpPred::Le => "<=",
            CmpPred::Eq => "==",
            CmpPred::Ne => "!=",
        }
    }

    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpPred::Lt => a < b,
            CmpPred::Le => a <= b,
            CmpPred::Eq => a == b,
            CmpPred::Ne => a != b,
        }
    }

    /// Whether the comparison holds for every `a` in `ia` and `b` in `ib` (Some(true)), for
    /// none (Some(false)), or depends on the values (None).
    pub fn decide(self, ia: super::Interval, ib: super::Interval) -> Option<bool> {
        let (always, never) = match self {
            CmpPred::Lt => (ia.hi < ib.lo, ia.lo >= ib.hi),
            CmpPred::Le => (ia.hi <= ib.lo, ia.lo > ib.hi),
            CmpPred::Eq => (
                ia.lo == ia.hi && ib.lo == ib.hi && ia.lo == ib.lo,
                ia.hi < ib.lo || ib.hi < ia.lo,
            ),
            CmpPred::Ne => (
                ia.hi < ib.lo || ib.hi < ia.lo,
                ia.lo == ia.hi && ib.lo == ib.hi && ia.lo == ib.lo,
            ),
        };
        if always {
            Some(true)
        } else if never {
            Some(false)
        } else {
            None
        }
    }

    /// The code of the binary form (its position in [`CmpPred::ALL`]).
    pub fn code(self) -> i64 {
        CmpPred::ALL.iter().position(|&p| p == self).unwrap_or(0) as i64
    }

    pub fn from_code(c: i64) -> Option<CmpPred> {
        usize::try_from(c)
            .ok()
            .and_then(|i| CmpPred::ALL.get(i).copied())
    }
}

/// One node. Operands are earlier nodes of the same expression.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Node {
    /// An integer literal.
    Const(i64),
    /// `@field[i, j]:T`: an element of an integer field, at index expressions.
    FieldLoad {
        field: String,
        ty: IntTy,
        indices: Vec<NodeId>,
    },
    /// `argN.shape[axis]`: a dimension of the kernel's ndarray argument N.
    NdarrayShape {
        arg: u32,
        axis: u32,
    },
    /// `argN:T`: the value of the kernel's integer scalar argument N, at the launch.
    ScalarArg {
        arg: u32,
        ty: IntTy,
    },
    /// `argN[i, j]:T`: an element of the kernel's integer ndarray argument N.
    NdarrayRead {
        arg: u32,
        ty: IntTy,
        indices: Vec<NodeId>,
    },
    /// `vN`: the variable bound by an enclosing `MaxOverRange` or `SumOverRange`.
    BoundVar(u32),
    Binary(BinOp, NodeId, NodeId),
    /// `max(body for vN in range(begin, end))`: 0 over an empty range, else the largest of 0 and
    /// every value of `body`.
    MaxOverRange {
        var: u32,
        begin: NodeId,
        end: NodeId,
        body: NodeId,
    },
    /// `select(lhs < rhs, then, other)`: `then` where the comparison holds, else `other` (only
    /// the chosen one is evaluated). What a local holds after a store under a branch whose
    /// condition the launch's data decides.
    Select {
        pred: CmpPred,
        lhs: NodeId,
        rhs: NodeId,
        then: NodeId,
        other: NodeId,
    },
    /// `sum(body for vN in range(begin, end))`: 0 over an empty range, else the (saturating) sum
    /// of `body` at every `v` in `[begin, end)`.
    SumOverRange {
        var: u32,
        begin: NodeId,
        end: NodeId,
        body: NodeId,
    },
}

impl Node {
    /// The operands, in the order the flat form stores them (indices; lhs, rhs; begin, end, body).
    pub fn operands(&self) -> Vec<NodeId> {
        match self {
            Node::Const(_)
            | Node::NdarrayShape { .. }
            | Node::ScalarArg { .. }
            | Node::BoundVar(_) => Vec::new(),
            Node::FieldLoad { indices, .. } | Node::NdarrayRead { indices, .. } => indices.clone(),
            Node::Binary(_, a, b) => vec![*a, *b],
            Node::MaxOverRange {
                begin, end, body, ..
            }
            | Node::SumOverRange {
                begin, end, body, ..
            } => vec![*begin, *end, *body],
            Node::Select {
                lhs,
                rhs,
                then,
                other,
                ..
            } => vec![*lhs, *rhs, *then, *other],
        }
    }

    /// The variable a range node binds and its operands (begin, end, body).
    pub fn as_range(&self) -> Option<(u32, NodeId, NodeId, NodeId)> {
        match self {
            Node::MaxOverRange {
                var,
                begin,
                end,
                body,
            }
            | Node::SumOverRange {
                var,
                begin,
                end,
                body,
            } => Some((*var, *begin, *end, *body)),
            _ => None,
        }
    }

    /// The same node with every operand mapped through `f`.
    pub fn map_operands(&self, mut f: impl FnMut(NodeId) -> NodeId) -> Node {
        match self {
            Node::Const(_)
            | Node::NdarrayShape { .. }
            | Node::ScalarArg { .. }
            | Node::BoundVar(_) => self.clone(),
            Node::FieldLoad { field, ty, indices } => Node::FieldLoad {
                field: field.clone(),
                ty: *ty,
                indices: indices.iter().map(|&i| f(i)).collect(),
            },
            Node::NdarrayRead { arg, ty, indices } => Node::NdarrayRead {
                arg: *arg,
                ty: *ty,
                indices: indices.iter().map(|&i| f(i)).collect(),
            },
            Node::Binary(op, a, b) => Node::Binary(*op, f(*a), f(*b)),
            Node::MaxOverRange {
                var,
                begin,
                end,
                body,
            } => Node::MaxOverRange {
                var: *var,
                begin: f(*begin),
                end: f(*end),
                body: f(*body),
            },
            Node::SumOverRange {
                var,
                begin,
                end,
                body,
            } => Node::SumOverRange {
                var: *var,
                begin: f(*begin),
                end: f(*end),
                body: f(*body),
            },
            Node::Select {
                pred,
                lhs,
                rhs,
                then,
                other,
            } => Node::Select {
                pred: *pred,
                lhs: f(*lhs),
                rhs: f(*rhs),
                then: f(*then),
                other: f(*other),
            },
        }
    }

    /// The kind's name, as the docs and error messages spell it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Node::Const(_) => "Const",
            Node::FieldLoad { .. } => "FieldLoad",
            Node::NdarrayShape { .. } => "NdarrayShape",
            Node::NdarrayRead { .. } => "NdarrayRead",
            Node::ScalarArg { .. } => "ScalarArg",
            Node::BoundVar(_) => "BoundVar",
            Node::Binary(BinOp::Add, ..) => "Add",
            Node::Binary(BinOp::Sub, ..) => "Sub",
            Node::Binary(BinOp::Mul, ..) => "Mul",
            Node::Binary(BinOp::Max, ..) => "Max",
            Node::Binary(BinOp::Min, ..) => "Min",
            Node::Binary(BinOp::Div, ..) => "Div",
            Node::MaxOverRange { .. } => "MaxOverRange",
            Node::SumOverRange { .. } => "SumOverRange",
            Node::Select { .. } => "Select",
        }
    }
}
