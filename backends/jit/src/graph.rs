//! [`Graph`]: a program of ndarray ops built node by node (the front end for bindings), which
//! [`crate::trace`] fills from a closure. A graph is plain data; [`Graph::to_module`] writes it
//! as a `func.func` of the ndarray dialect, whose text is the compile cache's key (the chain, the
//! shapes, the dtypes and every constant).

use qd_ir::{Builder, Context, OperationState, Type, Value};
use qd_ndarray::{array_type, broadcast};
use qd_runtime::DType;

/// A symbolic ndarray: a node of a [`Graph`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Sym(pub usize);

/// An operand of an elementwise op: a node or a scalar constant (of the ops' element type).
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Operand {
    Sym(Sym),
    Scalar(f64),
}

impl From<Sym> for Operand {
    fn from(s: Sym) -> Self {
        Operand::Sym(s)
    }
}
impl From<f64> for Operand {
    fn from(v: f64) -> Self {
        Operand::Scalar(v)
    }
}

/// A reduction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reduce {
    Sum,
    Mean,
    Max,
}

#[derive(Clone, PartialEq, Debug)]
pub enum NodeKind {
    Input,
    /// An elementwise primitive (built-in mnemonic or registered name).
    Apply {
        name: String,
        operands: Vec<Operand>,
    },
    Reduce {
        kind: Reduce,
        axis: Option<usize>,
        x: Sym,
    },
}

#[derive(Clone, PartialEq, Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub shape: Vec<usize>,
    /// F32 or F64; I1 for comparison results.
    pub dtype: DType,
}

/// A program of ndarray ops: inputs, nodes in order, outputs. Ops check their operands as they
/// are added; the first error is kept and reported when the graph is compiled.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub inputs: Vec<Sym>,
    pub outputs: Vec<Sym>,
    pub error: Option<String>,
}

const BUILTIN_NAMES: [&str; 22] = [
    "add", "sub", "mul", "div", "maximum", "minimum", "pow", "lt", "le", "gt", "ge", "eq", "ne",
    "neg", "relu", "sigmoid", "tanh", "exp", "log", "sqrt", "abs", "select",
];

impl Graph {
    pub fn new() -> Self {
        Graph::default()
    }

    /// A new input of `shape` and `dtype` (F32 or F64).
    pub fn input(&mut self, shape: &[usize], dtype: DType) -> Sym {
        if !matches!(dtype, DType::F32 | DType::F64) && self.error.is_none() {
            self.error = Some(format!(
                "input {}: dtype {dtype} is not f32 or f64",
                self.inputs.len()
            ));
        }
        let s = self.push(Node {
            kind: NodeKind::Input,
            shape: shape.to_vec(),
            dtype,
        });
        self.inputs.push(s);
        s
    }

    /// Marks `s` as an output (in order).
    pub fn output(&mut self, s: Sym) {
        self.outputs.push(s);
    }

    pub fn shape(&self, s: Sym) -> &[usize] {
        &self.nodes[s.0].shape
    }
    pub fn dtype(&self, s: Sym) -> DType {
        self.nodes[s.0].dtype
    }

    fn push(&mut self, n: Node) -> Sym {
        self.nodes.push(n);
        Sym(self.nodes.len() - 1)
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// Applies primitive `name` (a built-in op such as "add", or a registered primitive) to
    /// `operands`, broadcasting their shapes.
    pub fn apply(&mut self, name: &str, operands: &[Operand]) -> Sym {
        let p = qd_ndarray::primitive(name);
        let (arity, result, bools) = match &p {
            Some(p) => (p.arity, p.result, p.bool_operands),
            None => {
                self.fail(format!("'{name}' is not a registered primitive"));
                (operands.len(), qd_ndarray::ResultKind::Float, &[][..])
            }
        };
        if arity != operands.len() {
            self.fail(format!(
                "'{name}' takes {arity} operands, got {}",
                operands.len()
            ));
        }
        let mut shape: Vec<i64> = Vec::new();
        let mut dtype = None;
        for (i, o) in operands.iter().enumerate() {
            if let Operand::Sym(s) = o {
                let sh: Vec<i64> = self.shape(*s).iter().map(|&d| d as i64).collect();
                match broadcast(&shape, &sh) {
                    Ok(b) => shape = b,
                    Err(e) => self.fail(format!("'{name}': {e}")),
                }
                if !bools.contains(&i) {
                    let d = self.dtype(*s);
                    match dtype {
                        None => dtype = Some(d),
                        Some(t) if t != d => {
                            self.fail(format!("'{name}': operands of dtypes {t} and {d}"))
                        }
                        _ => {}
                    }
                }
            }
        }
        if !operands.iter().any(|o| matches!(o, Operand::Sym(_))) {
            self.fail(format!("'{name}': no array operand"));
        }
        let dtype = dtype.unwrap_or(DType::F32);
        self.push(Node {
            kind: NodeKind::Apply {
                name: name.to_string(),
                operands: operands.to_vec(),
            },
            shape: shape.iter().map(|&d| d as usize).collect(),
            dtype: match result {
                qd_ndarray::ResultKind::Bool => DType::I1,
                qd_ndarray::ResultKind::Float => dtype,
            },
        })
    }

    /// A reduction over every axis (`axis` None) or one axis.
    pub fn reduce(&mut self, kind: Reduce, x: Sym, axis: Option<usize>) -> Sym {
        let mut shape = self.shape(x).to_vec();
        match axis {
            None => shape.clear(),
            Some(a) if a < shape.len() => {
                shape.remove(a);
            }
            Some(a) => self.fail(format!(
                "reduction axis {a} is out of range for shape {shape:?}"
            )),
        }
        let dtype = self.dtype(x);
        self.push(Node {
            kind: NodeKind::Reduce { kind, axis, x },
            shape,
            dtype,
        })
    }

    /// Writes the graph as `func.func @name(inputs) -> outputs` in a new module of `ctx`;
    /// returns (module, func).
    pub fn to_module(
        &self,
        ctx: &mut Context,
        name: &str,
    ) -> Result<(qd_ir::OpId, qd_ir::OpId), String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.outputs.is_empty() {
            return Err("the graph has no output".into());
        }
        let loc = ctx.unknown_loc();
        let (module, mblock) = qd_ir::builtin::create_module(ctx, loc);
        let ty = |ctx: &mut Context, n: &Node| -> Type {
            let e = elem(ctx, n.dtype);
            let shape: Vec<i64> = n.shape.iter().map(|&d| d as i64).collect();
            array_type(ctx, &shape, e)
        };
        let in_types: Vec<Type> = self
            .inputs
            .iter()
            .map(|s| ty(ctx, &self.nodes[s.0]))
            .collect();
        let out_types: Vec<Type> = self
            .outputs
            .iter()
            .map(|s| ty(ctx, &self.nodes[s.0]))
            .collect();
        let (f, body) = qd_func::FuncOp::build(
            &mut Builder::at_end(ctx, mblock),
            name,
            &in_types,
            &out_types,
            true,
            loc,
        );
        let body = body.ok_or("func.func has no body")?;
        let args = f.args(ctx);
        let mut vals: Vec<Option<Value>> = vec![None; self.nodes.len()];
        for (s, a) in self.inputs.iter().zip(args) {
            vals[s.0] = Some(a);
        }
        let mut b = Builder::at_end(ctx, body);
        for (i, n) in self.nodes.iter().enumerate() {
            let rt = ty(b.ctx, n);
            let v = match &n.kind {
                NodeKind::Input => continue,
                NodeKind::Apply { name, operands } => {
                    let e = match n.dtype {
                        DType::I1 => operands
                            .iter()
                            .find_map(|o| match o {
                                Operand::Sym(s) if self.dtype(*s) != DType::I1 => {
                                    Some(self.dtype(*s))
                                }
                                _ => None,
                            })
                            .unwrap_or(DType::F32),
                        d => d,
                    };
                    let et = elem(b.ctx, e);
                    let ops: Vec<Value> = operands
                        .iter()
                        .map(|o| match o {
                            Operand::Sym(s) => vals[s.0].expect("operands come first"),
                            Operand::Scalar(c) => {
                                qd_arith::build_constant_float(&mut b, *c, et, loc)
                            }
                        })
                        .collect();
                    let builtin = BUILTIN_NAMES.contains(&name.as_str());
                    let opname = if builtin {
                        format!("ndarray.{name}")
                    } else {
                        "ndarray.primitive".into()
                    };
                    let mut st = OperationState::new(opname, loc)
                        .operands(&ops)
                        .results(&[rt]);
                    if !builtin {
                        let c = b.ctx.string_attr(name);
                        st.add_prop(b.ctx, "callee", c);
                    }
                    b.insert_value(st)
                }
                NodeKind::Reduce { kind, axis, x } => {
                    let opname = match kind {
                        Reduce::Sum => "ndarray.sum",
                        Reduce::Mean => "ndarray.mean",
                        Reduce::Max => "ndarray.max",
                    };
                    let mut st = OperationState::new(opname, loc)
                        .operands(&[vals[x.0].expect("operands come first")])
                        .results(&[rt]);
                    if let Some(a) = axis {
                        let i64t = b.ctx.i64_type();
                        let at = b.ctx.integer_attr(*a as i64, i64t);
                        st.add_prop(b.ctx, "axis", at);
                    }
                    b.insert_value(st)
                }
            };
            vals[i] = Some(v);
        }
        let outs: Vec<Value> = self
            .outputs
            .iter()
            .map(|s| vals[s.0].expect("defined"))
            .collect();
        qd_func::ReturnOp::build(&mut b, &outs, loc);
        Ok((module, f.0))
    }
}

/// The IR element type of a dtype.
pub fn elem(ctx: &mut Context, d: DType) -> Type {
    match d {
        DType::F64 => ctx.f64_type(),
        DType::I1 => ctx.i1_type(),
        _ => ctx.f32_type(),
    }
}
