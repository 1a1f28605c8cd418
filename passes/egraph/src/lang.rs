//! [`Sz`]: the SizeExpr grammar as an egg [`Language`], and the conversion of a [`SizeExpr`]
//! into an egg expression.
//!
//! Field names are not interned through egg's global `Symbol` table (whose numbering depends on
//! what the process interned before, so hashing it would make e-graph iteration order depend on
//! history): each conversion numbers the fields it meets in a [`FieldTable`], in first-seen order.

use egg::{FromOp, Id, Language, RecExpr};
use qd_adstack::size_expr::{BinOp, CmpPred, IntTy, Node, SizeExpr};
use std::fmt;

/// An e-node. The variant order is the tie-break order of extraction (literals first).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sz {
    Num(i64),
    /// A bound variable `vN`.
    Var(u32),
    /// `argN.shape[axis]`.
    Shape {
        arg: u32,
        axis: u32,
    },
    /// `argN:T`: a scalar argument, `ty` an [`IntTy`] code.
    Arg {
        arg: u32,
        ty: u32,
    },
    /// `@field[idx]:T`: `field` indexes the [`FieldTable`], `ty` is an [`IntTy`] code.
    Field {
        field: u32,
        ty: u32,
        idx: Box<[Id]>,
    },
    /// `argN[idx]:T`.
    Read {
        arg: u32,
        ty: u32,
        idx: Box<[Id]>,
    },
    Add([Id; 2]),
    Sub([Id; 2]),
    Mul([Id; 2]),
    Max([Id; 2]),
    Min([Id; 2]),
    /// `a / c`, rounded up (`c` a positive literal).
    Div([Id; 2]),
    /// `max(body for v in range(begin, end))`: children `[begin, end, body]`. The variable is
    /// data, not a child, so that no rewrite can turn the binder into anything else.
    Mor {
        var: u32,
        ops: [Id; 3],
    },
    /// `sum(body for v in range(begin, end))`: children `[begin, end, body]`.
    Sor {
        var: u32,
        ops: [Id; 3],
    },
    /// `select(a PRED b, then, other)`: children `[a, b, then, other]`, `pred` a
    /// [`CmpPred`] code.
    Select {
        pred: i64,
        ops: [Id; 4],
    },
}

/// The discriminant: the variant and its non-child data, so that e-matching only compares
/// nodes that can match.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SzKind {
    Num(i64),
    Var(u32),
    Shape(u32, u32),
    Arg(u32, u32),
    Field(u32, u32, usize),
    Read(u32, u32, usize),
    Add,
    Sub,
    Mul,
    Max,
    Min,
    Div,
    Mor(u32),
    Sor(u32),
    Select(i64),
}

impl Sz {
    /// The binary node `op(a, b)`.
    pub fn binary(op: BinOp, a: Id, b: Id) -> Sz {
        match op {
            BinOp::Add => Sz::Add([a, b]),
            BinOp::Sub => Sz::Sub([a, b]),
            BinOp::Mul => Sz::Mul([a, b]),
            BinOp::Max => Sz::Max([a, b]),
            BinOp::Min => Sz::Min([a, b]),
            BinOp::Div => Sz::Div([a, b]),
        }
    }

    /// The operator and operands of a binary node.
    pub fn as_binary(&self) -> Option<(BinOp, Id, Id)> {
        match self {
            Sz::Add([a, b]) => Some((BinOp::Add, *a, *b)),
            Sz::Sub([a, b]) => Some((BinOp::Sub, *a, *b)),
            Sz::Mul([a, b]) => Some((BinOp::Mul, *a, *b)),
            Sz::Max([a, b]) => Some((BinOp::Max, *a, *b)),
            Sz::Min([a, b]) => Some((BinOp::Min, *a, *b)),
            Sz::Div([a, b]) => Some((BinOp::Div, *a, *b)),
            _ => None,
        }
    }

    /// The variable and children `[begin, end, body]` of a range node (a max or a sum).
    pub fn as_range(&self) -> Option<(u32, [Id; 3])> {
        match self {
            Sz::Mor { var, ops } | Sz::Sor { var, ops } => Some((*var, *ops)),
            _ => None,
        }
    }

    /// Whether evaluating this node reads the launch's memory (a field or ndarray element).
    pub fn is_read(&self) -> bool {
        matches!(self, Sz::Field { .. } | Sz::Read { .. })
    }
}

impl Language for Sz {
    type Discriminant = SzKind;

    fn discriminant(&self) -> SzKind {
        match self {
            Sz::Num(c) => SzKind::Num(*c),
            Sz::Var(v) => SzKind::Var(*v),
            Sz::Shape { arg, axis } => SzKind::Shape(*arg, *axis),
            Sz::Arg { arg, ty } => SzKind::Arg(*arg, *ty),
            Sz::Field { field, ty, idx } => SzKind::Field(*field, *ty, idx.len()),
            Sz::Read { arg, ty, idx } => SzKind::Read(*arg, *ty, idx.len()),
            Sz::Add(_) => SzKind::Add,
            Sz::Sub(_) => SzKind::Sub,
            Sz::Mul(_) => SzKind::Mul,
            Sz::Max(_) => SzKind::Max,
            Sz::Min(_) => SzKind::Min,
            Sz::Div(_) => SzKind::Div,
            Sz::Mor { var, .. } => SzKind::Mor(*var),
            Sz::Sor { var, .. } => SzKind::Sor(*var),
            Sz::Select { pred, .. } => SzKind::Select(*pred),
        }
    }

    fn matches(&self, other: &Self) -> bool {
        self.discriminant() == other.discriminant()
    }

    fn children(&self) -> &[Id] {
        match self {
            Sz::Num(_) | Sz::Var(_) | Sz::Shape { .. } | Sz::Arg { .. } => &[],
            Sz::Field { idx, .. } | Sz::Read { idx, .. } => idx,
            Sz::Add(c) | Sz::Sub(c) | Sz::Mul(c) | Sz::Max(c) | Sz::Min(c) | Sz::Div(c) => c,
            Sz::Mor { ops, .. } | Sz::Sor { ops, .. } => ops,
            Sz::Select { ops, .. } => ops,
        }
    }

    fn children_mut(&mut self) -> &mut [Id] {
        match self {
            Sz::Num(_) | Sz::Var(_) | Sz::Shape { .. } | Sz::Arg { .. } => &mut [],
            Sz::Field { idx, .. } | Sz::Read { idx, .. } => idx,
            Sz::Add(c) | Sz::Sub(c) | Sz::Mul(c) | Sz::Max(c) | Sz::Min(c) | Sz::Div(c) => c,
            Sz::Mor { ops, .. } | Sz::Sor { ops, .. } => ops,
            Sz::Select { ops, .. } => ops,
        }
    }
}

impl fmt::Display for Sz {
    /// The operator as rule patterns spell it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sz::Num(c) => write!(f, "{c}"),
            Sz::Var(v) => write!(f, "v{v}"),
            Sz::Shape { arg, axis } => write!(f, "arg{arg}.shape[{axis}]"),
            Sz::Arg { arg, ty } => write!(f, "arg{arg}:{ty}"),
            Sz::Field { field, ty, .. } => write!(f, "field{field}:{ty}"),
            Sz::Read { arg, ty, .. } => write!(f, "arg{arg}:{ty}"),
            Sz::Add(_) => f.write_str("+"),
            Sz::Sub(_) => f.write_str("-"),
            Sz::Mul(_) => f.write_str("*"),
            Sz::Max(_) => f.write_str("max"),
            Sz::Min(_) => f.write_str("min"),
            Sz::Div(_) => f.write_str("/"),
            Sz::Mor { var, .. } => write!(f, "mor-v{var}"),
            Sz::Sor { var, .. } => write!(f, "sor-v{var}"),
            Sz::Select { pred, .. } => write!(f, "select{pred}"),
        }
    }
}

/// Rule patterns use literals and the binary operators only.
impl FromOp for Sz {
    type Error = String;

    fn from_op(op: &str, children: Vec<Id>) -> Result<Self, String> {
        let pair = |c: &[Id]| -> Result<[Id; 2], String> {
            <[Id; 2]>::try_from(c).map_err(|_| format!("'{op}' takes 2 operands"))
        };
        match op {
            "+" => Ok(Sz::Add(pair(&children)?)),
            "-" => Ok(Sz::Sub(pair(&children)?)),
            "*" => Ok(Sz::Mul(pair(&children)?)),
            "max" => Ok(Sz::Max(pair(&children)?)),
            "min" => Ok(Sz::Min(pair(&children)?)),
            "/" => Ok(Sz::Div(pair(&children)?)),
            _ if children.is_empty() => op
                .parse::<i64>()
                .map(Sz::Num)
                .map_err(|_| format!("unknown operator '{op}'")),
            _ => Err(format!("unknown operator '{op}'")),
        }
    }
}

/// The fields of one expression, numbered in first-seen order.
#[derive(Clone, Debug, Default)]
pub struct FieldTable {
    names: Vec<String>,
}

impl FieldTable {
    fn index(&mut self, name: &str) -> u32 {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i as u32,
            None => {
                self.names.push(name.to_string());
                (self.names.len() - 1) as u32
            }
        }
    }

    pub fn name(&self, i: u32) -> Option<&str> {
        self.names.get(i as usize).map(String::as_str)
    }
}

/// The egg expression of `e` (same post-order, so node `i` of `e` is node `i` here) and the
/// fields it reads.
pub fn to_rec_expr(e: &SizeExpr) -> (RecExpr<Sz>, FieldTable) {
    let mut fields = FieldTable::default();
    let rec = to_rec_expr_in(e, &mut fields);
    (rec, fields)
}

/// The egg expression of `e`, numbering its fields in `fields` (shared between expressions
/// that go into one e-graph).
pub fn to_rec_expr_in(e: &SizeExpr, fields: &mut FieldTable) -> RecExpr<Sz> {
    let mut rec = RecExpr::default();
    let id = |n: &qd_adstack::size_expr::NodeId| Id::from(n.index());
    for n in e.nodes() {
        let node = match n {
            Node::Const(c) => Sz::Num(*c),
            Node::BoundVar(v) => Sz::Var(*v),
            Node::NdarrayShape { arg, axis } => Sz::Shape {
                arg: *arg,
                axis: *axis,
            },
            Node::ScalarArg { arg, ty } => Sz::Arg {
                arg: *arg,
                ty: ty.code(),
            },
            Node::FieldLoad { field, ty, indices } => Sz::Field {
                field: fields.index(field),
                ty: ty.code(),
                idx: indices.iter().map(id).collect(),
            },
            Node::NdarrayRead { arg, ty, indices } => Sz::Read {
                arg: *arg,
                ty: ty.code(),
                idx: indices.iter().map(id).collect(),
            },
            Node::Binary(op, a, b) => Sz::binary(*op, id(a), id(b)),
            Node::MaxOverRange {
                var,
                begin,
                end,
                body,
            } => Sz::Mor {
                var: *var,
                ops: [id(begin), id(end), id(body)],
            },
            Node::SumOverRange {
                var,
                begin,
                end,
                body,
            } => Sz::Sor {
                var: *var,
                ops: [id(begin), id(end), id(body)],
            },
            Node::Select {
                pred,
                lhs,
                rhs,
                then,
                other,
            } => Sz::Select {
                pred: pred.code(),
                ops: [id(lhs), id(rhs), id(then), id(other)],
            },
        };
        rec.add(node);
    }
    rec
}

/// The SizeExpr node of an e-node whose children have become `ops` (None for a field or type
/// code the table does not know, which a conversion never produces).
pub fn to_node(n: &Sz, fields: &FieldTable, ops: &[qd_adstack::size_expr::NodeId]) -> Option<Node> {
    let pair = || (ops[0], ops[1]);
    Some(match n {
        Sz::Num(c) => Node::Const(*c),
        Sz::Var(v) => Node::BoundVar(*v),
        Sz::Shape { arg, axis } => Node::NdarrayShape {
            arg: *arg,
            axis: *axis,
        },
        Sz::Arg { arg, ty } => Node::ScalarArg {
            arg: *arg,
            ty: IntTy::from_code(*ty)?,
        },
        Sz::Field { field, ty, .. } => Node::FieldLoad {
            field: fields.name(*field)?.to_string(),
            ty: IntTy::from_code(*ty)?,
            indices: ops.to_vec(),
        },
        Sz::Read { arg, ty, .. } => Node::NdarrayRead {
            arg: *arg,
            ty: IntTy::from_code(*ty)?,
            indices: ops.to_vec(),
        },
        Sz::Mor { var, .. } => Node::MaxOverRange {
            var: *var,
            begin: ops[0],
            end: ops[1],
            body: ops[2],
        },
        Sz::Sor { var, .. } => Node::SumOverRange {
            var: *var,
            begin: ops[0],
            end: ops[1],
            body: ops[2],
        },
        Sz::Select { pred, .. } => Node::Select {
            pred: CmpPred::from_code(*pred)?,
            lhs: ops[0],
            rhs: ops[1],
            then: ops[2],
            other: ops[3],
        },
        _ => {
            let (op, ..) = n.as_binary()?;
            let (a, b) = pair();
            Node::Binary(op, a, b)
        }
    })
}
