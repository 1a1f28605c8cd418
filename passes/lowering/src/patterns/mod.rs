//! The conversion patterns of `convert-qd-to-lowered`, one per qd, ad and adstack op, applied by
//! qd-ir's dialect-conversion driver (full conversion) to the outlined tasks:
//!
//! - target: the `lowered`, `arith` and `math` dialects are legal; anything else left is an error
//!   (`failed to legalize operation 'name'`, at its location);
//! - types: `!qd.ptr<T>` converts to `!lowered.ptr<T, private>`, `!adstack.stack<T>` to the i64
//!   byte offset of the stack's slice in its heap; every other type stays;
//! - each pattern gets the op's converted operands and the [`Facts`] gathered before the
//!   conversion (constant and in-range indices, stack ids), and the pass's [`LoweringOptions`].
//!
//! A pattern checks what can fail before it emits anything: the driver does not roll back.

mod access;
mod adstack;
mod control;
mod emit;
mod locals;
mod memory;
mod prologue;

use crate::convert_qd_to_lowered::LoweringOptions;
use crate::facts::Facts;
use emit::{Em, R};
use prologue::Prologues;
use qd_adstack::StackType;
use qd_frontend::PtrType;
use qd_ir::conversion::{ConversionPattern, ConversionRewriter, ConversionTarget, TypeConverter};
use qd_ir::fast_hash::FastMap;
use qd_ir::{BlockId, OpId, Value};
use qd_lowered::private_ptr;
use std::cell::RefCell;
use std::rc::Rc;

/// What a pattern does with its op.
type LowerFn = fn(&mut Em, OpId, &[Value]) -> R<()>;

/// What the patterns of one conversion remember between ops: the index of the task prologues,
/// each stack's view and the invariants asked for often, per task (all only spare work; the IR
/// is the same without them).
#[derive(Default)]
pub struct State {
    pub prologues: Prologues,
    pub views: adstack::Views,
    pub invariants: FastMap<(BlockId, emit::InvKey), Value>,
    /// Types asked for per op, interned once (see [`emit::Em::i64_type`]).
    pub types: emit::Types,
}

/// What every pattern of one conversion shares: the facts and the state (patterns get `&self`
/// and the driver keeps no pattern state, so the state is a `RefCell`; the driver applies one
/// pattern at a time, so it is never borrowed twice).
struct Shared {
    facts: Facts,
    state: RefCell<State>,
}

/// A pattern that converts the ops named `root` with `f`.
struct Lower {
    root: &'static str,
    f: LowerFn,
    shared: Rc<Shared>,
    options: LoweringOptions,
}

impl ConversionPattern for Lower {
    fn name(&self) -> &'static str {
        self.root
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.root)
    }
    fn match_and_rewrite(
        &self,
        op: OpId,
        operands: &[Value],
        rw: &mut ConversionRewriter<'_>,
    ) -> bool {
        let r = {
            let mut state = self.shared.state.borrow_mut();
            let mut em = Em::new(rw, op, &self.shared.facts, self.options, &mut state);
            (self.f)(&mut em, op, operands)
        };
        match r {
            Ok(()) => true,
            Err(d) => {
                // Said here; the driver then reports the op it could not legalize.
                rw.intern(|ctx| ctx.emit(d));
                false
            }
        }
    }
}

/// Every op the conversion handles, with its conversion.
const TABLE: &[(&str, LowerFn)] = {
    use qd_frontend as qd;
    &[
        (qd::RANGE_FOR_OP, control::range_for),
        (qd::STRUCT_FOR_OP, control::struct_for),
        (qd::WHILE_OP, control::while_loop),
        (qd::CONDITION_OP, control::condition),
        (qd::IF_OP, control::if_op),
        (qd::LOAD_OP, memory::field_load),
        (qd::STORE_OP, memory::field_store),
        (qd::ATOMIC_ADD_OP, memory::field_atomic),
        (qd::ATOMIC_MIN_OP, memory::field_atomic),
        (qd::ATOMIC_MAX_OP, memory::field_atomic),
        (qd::NDARRAY_LOAD_OP, memory::ndarray_load),
        (qd::NDARRAY_STORE_OP, memory::ndarray_store),
        (qd::NDARRAY_SHAPE_OP, memory::ndarray_shape),
        (qd::NDARRAY_ATOMIC_ADD_OP, memory::ndarray_atomic),
        (qd::NDARRAY_ATOMIC_SUB_OP, memory::ndarray_atomic),
        (qd::NDARRAY_ATOMIC_MIN_OP, memory::ndarray_atomic),
        (qd::NDARRAY_ATOMIC_MAX_OP, memory::ndarray_atomic),
        (qd::ALLOCA_OP, locals::alloca),
        (qd::LOCAL_LOAD_OP, locals::local_load),
        (qd::LOCAL_STORE_OP, locals::local_store),
        (qd::ELEM_PTR_OP, locals::elem_ptr),
        (qd::MEMBER_PTR_OP, locals::member_ptr),
        (qd_ad::LOAD_FIELD_ADJOINT_OP, memory::load_field_adjoint),
        (qd_ad::ACC_FIELD_ADJOINT_OP, memory::write_field_adjoint),
        (qd_ad::STORE_FIELD_ADJOINT_OP, memory::write_field_adjoint),
        (qd_ad::ACC_NDARRAY_ADJOINT_OP, memory::acc_ndarray_adjoint),
        (qd_ad::LOAD_ELEMENT_OP, locals::element),
        (qd_ad::STORE_ELEMENT_OP, locals::element),
        (qd_adstack::ALLOCA_OP, adstack::alloca),
        (qd_adstack::PUSH_OP, adstack::push),
        (qd_adstack::POP_OP, adstack::pop),
        (qd_adstack::LOAD_TOP_OP, adstack::load_top),
        (qd_adstack::LOAD_TOP_ADJ_OP, adstack::load_top_adj),
        (qd_adstack::ACC_ADJOINT_OP, adstack::acc_adjoint),
    ]
};

/// The patterns, sharing `facts` and `options`.
pub fn patterns(facts: Facts, options: LoweringOptions) -> Vec<Box<dyn ConversionPattern>> {
    let shared = Rc::new(Shared {
        facts,
        state: RefCell::default(),
    });
    TABLE
        .iter()
        .map(|&(root, f)| {
            Box::new(Lower {
                root,
                f,
                shared: shared.clone(),
                options,
            }) as Box<dyn ConversionPattern>
        })
        .collect()
}

/// The target: lowered IR with upstream arith and math.
pub fn target() -> ConversionTarget {
    let mut t = ConversionTarget::new();
    t.add_legal_dialect("lowered")
        .add_legal_dialect("arith")
        .add_legal_dialect("math");
    t
}

/// Pointers to locals become private pointers; stacks their heap slice's byte offset.
pub fn type_converter() -> TypeConverter {
    let mut tc = TypeConverter::new();
    tc.add_identity_conversion();
    tc.add_conversion(|ctx, ty| {
        let p = PtrType::from_type(ctx, ty)?.pointee(ctx);
        Some(private_ptr(ctx, p))
    });
    tc.add_conversion(|ctx, ty| StackType::from_type(ctx, ty).map(|_| ctx.i64_type()));
    tc
}
