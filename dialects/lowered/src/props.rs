//! The lowered dialect's own property kind: which adstack heap an op addresses, a bare keyword in
//! the custom form (`float` / `int`) and a string in the generic form (`heap = "float"`).

use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::{PropKind, PropSpec};
use qd_ir::{AttrData, Attribute, Context, DiagResult};

/// One of the two adstack heaps.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Heap {
    /// Float stacks: `[primal, adjoint]` entries.
    Float,
    /// Integer and i1 stacks: primal entries.
    Int,
}

impl Heap {
    pub fn name(self) -> &'static str {
        match self {
            Heap::Float => "float",
            Heap::Int => "int",
        }
    }
    pub fn from_name(s: &str) -> Option<Heap> {
        match s {
            "float" => Some(Heap::Float),
            "int" => Some(Heap::Int),
            _ => None,
        }
    }
}

fn heap_of(ctx: &Context, a: Attribute) -> Option<Heap> {
    match ctx.attr_data(a) {
        AttrData::String(s) => Heap::from_name(s),
        _ => None,
    }
}

fn parse_heap(p: &mut dyn OpAsmParser) -> DiagResult<Attribute> {
    let loc = p.current_loc();
    let kw = p.parse_any_keyword()?;
    match Heap::from_name(&kw) {
        Some(h) => Ok(p.ctx().string_attr(h.name())),
        None => Err(qd_ir::Diagnostic::error(
            loc,
            format!("expected heap 'float' or 'int', got '{kw}'"),
        )),
    }
}

fn print_heap(p: &mut dyn OpAsmPrinter, a: Attribute) {
    match heap_of(p.ctx(), a) {
        Some(h) => p.write(h.name()),
        None => p.print_attribute(a),
    }
}

fn print_in_dict(p: &mut dyn OpAsmPrinter, a: Attribute) {
    p.print_attribute(a)
}

/// `heap`: `float` or `int`.
pub struct HeapProp;
impl PropKind for HeapProp {
    const IRDL: qd_ir::irdl::Irdl = qd_ir::irdl::Irdl::AnyOf(&[
        qd_ir::irdl::Irdl::Is("\"float\""),
        qd_ir::irdl::Irdl::Is("\"int\""),
    ]);
    const SPEC: PropSpec = PropSpec {
        expected: "\"float\" or \"int\"",
        check: |ctx, a| heap_of(ctx, a).is_some(),
        parse: parse_heap,
        print: print_heap,
        print_in_dict,
    };
    type Value<'a> = Heap;
    fn get(ctx: &Context, a: Attribute) -> Option<Heap> {
        heap_of(ctx, a)
    }
    fn make(ctx: &mut Context, v: Heap) -> Attribute {
        ctx.string_attr(v.name())
    }
}
