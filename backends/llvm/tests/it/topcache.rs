//! The registers that cache adstack heap slots (`codegen/topcache.rs`) never hand out a stale
//! value: accesses through different keys (offset bases) that land on the same bytes, at offsets
//! known only at run time, see each other's stores, whatever their types; an access through a key
//! after its own store or load sees that value.

use qd_ir::text::parse_source;
use qd_llvm::frame::{NONE, W_ERR_SITE, W_HEAP_FLOAT, W_OVF_THREAD};
use qd_llvm::sites::Sites;
use qd_llvm::{jit_kernel, KernelInput, Options};
use qd_runtime::{KernelStacks, Memory};

/// One thread; `%t` is its index (0), unknown to LLVM, so the offsets are run-time values:
/// A = 8 + t*4 (key 8), B = 4 + (t+1)*4 (key 4), C = 12 + t*4 (key 12), I = 0 + (t+2)*4 (key 0,
/// i32): A, B and I are byte 8, C is byte 12.
const SRC: &str = r#"module {
  qd.field @out : !qd.field<8xf32>
  lowered.kernel @k() attributes {temps = 0} {
    lowered.task @k_0 range(0, 1) {
      %t = lowered.thread_id : i64
      %c0 = arith.constant 0 : i64
      %c1 = arith.constant 1 : i64
      %c2 = arith.constant 2 : i64
      %c4 = arith.constant 4 : i64
      %c8 = arith.constant 8 : i64
      %c12 = arith.constant 12 : i64
      %ta = arith.muli %t, %c4 : i64
      %offa = arith.addi %c8, %ta : i64
      %t1 = arith.addi %t, %c1 : i64
      %tb = arith.muli %t1, %c4 : i64
      %offb = arith.addi %c4, %tb : i64
      %offc = arith.addi %c12, %ta : i64
      %t2 = arith.addi %t, %c2 : i64
      %ti = arith.muli %t2, %c4 : i64
      %offi = arith.addi %c0, %ti : i64
      %pa = lowered.heap_ptr float, %offa : !lowered.ptr<f32>
      %pb = lowered.heap_ptr float, %offb : !lowered.ptr<f32>
      %pc = lowered.heap_ptr float, %offc : !lowered.ptr<f32>
      %pi = lowered.heap_ptr float, %offi : !lowered.ptr<i32>
      %out = lowered.field_ptr @out : !lowered.ptr<f32>
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %three = arith.constant 3.0 : f32
      %five_bits = arith.constant 1084227584 : i32
      lowered.store %one, %pa : !lowered.ptr<f32>
      %r0 = lowered.load %pa : !lowered.ptr<f32>
      %r1 = lowered.load %pb : !lowered.ptr<f32>
      lowered.store %two, %pb : !lowered.ptr<f32>
      %r2 = lowered.load %pa : !lowered.ptr<f32>
      lowered.store %three, %pc : !lowered.ptr<f32>
      %r3 = lowered.load %pa : !lowered.ptr<f32>
      %r4 = lowered.load %pc : !lowered.ptr<f32>
      lowered.store %five_bits, %pi : !lowered.ptr<i32>
      %r5 = lowered.load %pa : !lowered.ptr<f32>
      %r6 = lowered.load %pb : !lowered.ptr<f32>
      %o1 = lowered.offset %out, %c1 : !lowered.ptr<f32>
      %o2 = lowered.offset %out, %c2 : !lowered.ptr<f32>
      %c3 = arith.constant 3 : i64
      %o3 = lowered.offset %out, %c3 : !lowered.ptr<f32>
      %o4 = lowered.offset %out, %c4 : !lowered.ptr<f32>
      %c5 = arith.constant 5 : i64
      %o5 = lowered.offset %out, %c5 : !lowered.ptr<f32>
      %c6 = arith.constant 6 : i64
      %o6 = lowered.offset %out, %c6 : !lowered.ptr<f32>
      lowered.store %r0, %out : !lowered.ptr<f32>
      lowered.store %r1, %o1 : !lowered.ptr<f32>
      lowered.store %r2, %o2 : !lowered.ptr<f32>
      lowered.store %r3, %o3 : !lowered.ptr<f32>
      lowered.store %r4, %o4 : !lowered.ptr<f32>
      lowered.store %r5, %o5 : !lowered.ptr<f32>
      lowered.store %r6, %o6 : !lowered.ptr<f32>
      lowered.return
    }
  }
}"#;

#[test]
fn aliasing_heap_accesses_see_each_others_stores() {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, SRC, "k.mlir").expect("parse");
    let op = qd_ir::symbol_table::lookup_symbol_in(&ctx, module, "k").expect("@k");
    let memory = Memory::for_module(&ctx, module).unwrap();
    let stacks = KernelStacks::default();
    let input = KernelInput {
        ctx: &ctx,
        op,
        name: "k",
        stacks: &stacks,
        memory: &memory,
    };
    let frame = input.frame();
    let sites = Sites::collect(&ctx, op);
    // The cache is the scalar codegen's (and the heap below is laid out for one lane).
    let opts = Options {
        vectorize: false,
        ..Options::default()
    };
    let (code, _) = jit_kernel(&input, &frame, &sites, &opts).unwrap();
    let mut heap = vec![0u64; 4];
    let mut out = vec![0f32; 8];
    let mut words = vec![0u64; frame.words as usize];
    words[W_HEAP_FLOAT as usize] = heap.as_mut_ptr() as u64;
    words[W_ERR_SITE as usize] = NONE;
    words[W_OVF_THREAD as usize] = NONE;
    let field = memory.field_index("out").unwrap();
    words[frame.field(field, false) as usize] = out.as_mut_ptr() as u64;
    // SAFETY: the words follow the kernel's frame; the heap holds every offset the task uses.
    let rc = unsafe { (code.tasks[0])(words.as_mut_ptr(), 0, 1) };
    assert_eq!(rc, 0);
    // A's own store; B reads what A wrote; A sees B's store; C (other bytes) leaves A alone and
    // reads its own; an i32 store through I (A's bytes) is what A and B read next.
    assert_eq!(out[..7], [1.0, 1.0, 2.0, 2.0, 3.0, 5.0, 5.0]);
    let bytes: Vec<u8> = heap.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(&bytes[8..12], &5.0f32.to_le_bytes());
    assert_eq!(&bytes[12..16], &3.0f32.to_le_bytes());
}
