//! Tracing a closure over symbolic ndarrays: while [`trace`] runs the closure, a thread-local
//! [`Graph`] records every op its [`Tensor`]s make (operators `+ - * /` and unary `-` with
//! tensors or `f64` scalars on either side, and the methods below).

use crate::graph::{Graph, Operand, Reduce, Sym};
use qd_runtime::DType;
use std::cell::RefCell;

thread_local! {
    static GRAPH: RefCell<Option<Graph>> = const { RefCell::new(None) };
}

/// A symbolic ndarray of the graph being traced.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Tensor(pub Sym);

fn with<R>(f: impl FnOnce(&mut Graph) -> R) -> R {
    GRAPH.with(|g| {
        let mut g = g.borrow_mut();
        let g = g
            .as_mut()
            .expect("a Tensor op outside jit tracing (use Tensors only inside the traced closure)");
        f(g)
    })
}

/// Runs `f` on fresh inputs of the given shapes and dtypes and returns the graph it made with
/// `f`'s results as outputs.
pub fn trace(inputs: &[(Vec<usize>, DType)], f: &dyn Fn(&[Tensor]) -> Vec<Tensor>) -> Graph {
    let mut g = Graph::new();
    let ts: Vec<Tensor> = inputs.iter().map(|(s, d)| Tensor(g.input(s, *d))).collect();
    let prev = GRAPH.with(|c| c.replace(Some(g)));
    let outs = f(&ts);
    let mut g = GRAPH
        .with(|c| c.replace(prev))
        .expect("the graph being traced");
    for o in outs {
        g.output(o.0);
    }
    g
}

/// A tensor or a scalar, as an operand.
pub trait IntoOperand {
    fn operand(self) -> Operand;
}

impl Tensor {
    /// This tensor as an operand of [`apply`].
    pub fn into_operand(self) -> Operand {
        Operand::Sym(self.0)
    }
}
impl IntoOperand for Tensor {
    fn operand(self) -> Operand {
        Operand::Sym(self.0)
    }
}
impl IntoOperand for f64 {
    fn operand(self) -> Operand {
        Operand::Scalar(self)
    }
}
impl IntoOperand for f32 {
    fn operand(self) -> Operand {
        Operand::Scalar(self as f64)
    }
}

/// Applies primitive `name` (built-in or registered) to the operands.
pub fn apply(name: &str, operands: &[Operand]) -> Tensor {
    Tensor(with(|g| g.apply(name, operands)))
}

fn bin(name: &str, a: impl IntoOperand, b: impl IntoOperand) -> Tensor {
    apply(name, &[a.operand(), b.operand()])
}

pub fn maximum(a: impl IntoOperand, b: impl IntoOperand) -> Tensor {
    bin("maximum", a, b)
}
pub fn minimum(a: impl IntoOperand, b: impl IntoOperand) -> Tensor {
    bin("minimum", a, b)
}
pub fn pow(a: impl IntoOperand, b: impl IntoOperand) -> Tensor {
    bin("pow", a, b)
}
/// where(cond, a, b).
pub fn select(c: Tensor, a: impl IntoOperand, b: impl IntoOperand) -> Tensor {
    apply("select", &[c.operand(), a.operand(), b.operand()])
}

impl Tensor {
    fn unary(self, name: &str) -> Tensor {
        apply(name, &[self.operand()])
    }
    pub fn relu(self) -> Tensor {
        self.unary("relu")
    }
    pub fn sigmoid(self) -> Tensor {
        self.unary("sigmoid")
    }
    pub fn tanh(self) -> Tensor {
        self.unary("tanh")
    }
    pub fn exp(self) -> Tensor {
        self.unary("exp")
    }
    pub fn log(self) -> Tensor {
        self.unary("log")
    }
    pub fn sqrt(self) -> Tensor {
        self.unary("sqrt")
    }
    pub fn abs(self) -> Tensor {
        self.unary("abs")
    }
    pub fn lt(self, o: impl IntoOperand) -> Tensor {
        bin("lt", self, o)
    }
    pub fn le(self, o: impl IntoOperand) -> Tensor {
        bin("le", self, o)
    }
    pub fn gt(self, o: impl IntoOperand) -> Tensor {
        bin("gt", self, o)
    }
    pub fn ge(self, o: impl IntoOperand) -> Tensor {
        bin("ge", self, o)
    }
    pub fn eq_(self, o: impl IntoOperand) -> Tensor {
        bin("eq", self, o)
    }
    pub fn ne_(self, o: impl IntoOperand) -> Tensor {
        bin("ne", self, o)
    }
    pub fn pow(self, o: impl IntoOperand) -> Tensor {
        bin("pow", self, o)
    }
    fn reduce(self, kind: Reduce, axis: Option<usize>) -> Tensor {
        Tensor(with(|g| g.reduce(kind, self.0, axis)))
    }
    /// The sum over every axis.
    pub fn sum(self) -> Tensor {
        self.reduce(Reduce::Sum, None)
    }
    pub fn sum_axis(self, axis: usize) -> Tensor {
        self.reduce(Reduce::Sum, Some(axis))
    }
    pub fn mean(self) -> Tensor {
        self.reduce(Reduce::Mean, None)
    }
    pub fn mean_axis(self, axis: usize) -> Tensor {
        self.reduce(Reduce::Mean, Some(axis))
    }
    pub fn max(self) -> Tensor {
        self.reduce(Reduce::Max, None)
    }
    pub fn max_axis(self, axis: usize) -> Tensor {
        self.reduce(Reduce::Max, Some(axis))
    }
    pub fn shape(self) -> Vec<usize> {
        with(|g| g.shape(self.0).to_vec())
    }
}

macro_rules! binop {
    ($Trait:ident, $method:ident, $name:literal) => {
        impl<R: IntoOperand> std::ops::$Trait<R> for Tensor {
            type Output = Tensor;
            fn $method(self, r: R) -> Tensor {
                bin($name, self, r)
            }
        }
        impl std::ops::$Trait<Tensor> for f64 {
            type Output = Tensor;
            fn $method(self, r: Tensor) -> Tensor {
                bin($name, self, r)
            }
        }
        impl std::ops::$Trait<Tensor> for f32 {
            type Output = Tensor;
            fn $method(self, r: Tensor) -> Tensor {
                bin($name, self, r)
            }
        }
    };
}
binop!(Add, add, "add");
binop!(Sub, sub, "sub");
binop!(Mul, mul, "mul");
binop!(Div, div, "div");

impl std::ops::Neg for Tensor {
    type Output = Tensor;
    fn neg(self) -> Tensor {
        self.unary("neg")
    }
}

/// What a traced closure returns: one tensor, a tuple of them, or a vector.
pub trait Outputs {
    fn tensors(self) -> Vec<Tensor>;
}
impl Outputs for Tensor {
    fn tensors(self) -> Vec<Tensor> {
        vec![self]
    }
}
impl Outputs for Vec<Tensor> {
    fn tensors(self) -> Vec<Tensor> {
        self
    }
}
impl Outputs for (Tensor, Tensor) {
    fn tensors(self) -> Vec<Tensor> {
        vec![self.0, self.1]
    }
}
impl Outputs for (Tensor, Tensor, Tensor) {
    fn tensors(self) -> Vec<Tensor> {
        vec![self.0, self.1, self.2]
    }
}
