//! Issue #14's arith ops (ceildivsi, floordivsi, ceildivui, maxui, minui, index_castui,
//! maxnumf, minnumf) on the vulkan device (lavapipe) against the interpreter, over a sweep of
//! every pair of edge values: INT_MIN, -1, 0 (a division by zero is the same error), negative
//! operands, NaN, infinities and signed zeros. Results compare bit for bit (every NaN as one
//! value).

use crate::vulkan::device;
use qd_ir::text::parse_source;
use qd_runtime::{Arg, Device, Program, ProgramConfig, Scalar};

const INTS: [i32; 12] = [
    i32::MIN,
    i32::MIN + 1,
    -7,
    -6,
    -1,
    0,
    1,
    2,
    3,
    6,
    7,
    i32::MAX,
];
const FLOATS: [f32; 8] = [
    f32::NAN,
    f32::NEG_INFINITY,
    -1.5,
    -0.0,
    0.0,
    2.0,
    2.5,
    f32::INFINITY,
];
/// Every (a, b) pair, and every (x, y) pair repeated along them.
const N: usize = INTS.len() * INTS.len();

fn src() -> String {
    format!(
        "module {{
  qd.field @a : !qd.field<{N}xi32>
  qd.field @b : !qd.field<{N}xi32>
  qd.field @x : !qd.field<{N}xf32>
  qd.field @y : !qd.field<{N}xf32>
  qd.field @o0 : !qd.field<{N}xi32>
  qd.field @o1 : !qd.field<{N}xi32>
  qd.field @o2 : !qd.field<{N}xi32>
  qd.field @o3 : !qd.field<{N}xi32>
  qd.field @o4 : !qd.field<{N}xi32>
  qd.field @w0 : !qd.field<{N}xi64>
  qd.field @w1 : !qd.field<{N}xi64>
  qd.field @f0 : !qd.field<{N}xf32>
  qd.field @f1 : !qd.field<{N}xf32>
  qd.field @d0 : !qd.field<{N}xf64>
  qd.field @d1 : !qd.field<{N}xf64>
  qd.kernel @ints() {{
    qd.struct_for (%i) in @a {{
      %a = qd.load @a[%i] : i32
      %b0 = qd.load @b[%i] : i32
      %z = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %isz = arith.cmpi eq, %b0, %z : i32
      %b = arith.select %isz, %one, %b0 : i32
      %0 = arith.ceildivsi %a, %b : i32
      qd.store %0, @o0[%i] : i32
      %1 = arith.floordivsi %a, %b : i32
      qd.store %1, @o1[%i] : i32
      %2 = arith.ceildivui %a, %b : i32
      qd.store %2, @o2[%i] : i32
      %3 = arith.maxui %a, %b0 : i32
      qd.store %3, @o3[%i] : i32
      %4 = arith.minui %a, %b0 : i32
      qd.store %4, @o4[%i] : i32
      %u = arith.index_castui %a : i32 to index
      %u64 = arith.index_cast %u : index to i64
      qd.store %u64, @w0[%i] : i64
      %s = arith.index_cast %b0 : i32 to index
      %t = arith.index_castui %s : index to i16
      %t64 = arith.extsi %t : i16 to i64
      qd.store %t64, @w1[%i] : i64
    }}
  }}
  qd.kernel @floats() {{
    qd.struct_for (%i) in @x {{
      %x = qd.load @x[%i] : f32
      %y = qd.load @y[%i] : f32
      %0 = arith.maxnumf %x, %y : f32
      qd.store %0, @f0[%i] : f32
      %1 = arith.minnumf %x, %y fastmath<nnan> : f32
      qd.store %1, @f1[%i] : f32
      %xd = arith.extf %x : f32 to f64
      %yd = arith.extf %y : f32 to f64
      %2 = arith.maxnumf %xd, %yd : f64
      qd.store %2, @d0[%i] : f64
      %3 = arith.minnumf %xd, %yd : f64
      qd.store %3, @d1[%i] : f64
    }}
  }}
  qd.kernel @div(%a: i32, %b: i32) {{
    %c0 = arith.constant 0 : i32
    %q = arith.ceildivui %a, %b : i32
    qd.store %q, @o0[%c0] : i32
    qd.struct_for (%i) in @a {{
      %v = qd.load @b[%i] : i32
      %r = arith.floordivsi %a, %v : i32
      qd.store %r, @o1[%i] : i32
    }}
  }}
}}"
    )
}

fn program_on(src: &str, device: Box<dyn Device>) -> Program {
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, src, "test.mlir").expect("parses");
    Program::new(ctx, module, device, ProgramConfig::default())
        .unwrap_or_else(|e| panic!("program: {e}"))
}

fn interp(src: &str) -> Program {
    program_on(src, Box::new(qd_interp::Interpreter::new()))
}

/// Runs `kernel`: its errors as text.
fn run(p: &mut Program, kernel: &str, args: &[Arg]) -> Vec<String> {
    let k = p
        .kernel(kernel)
        .unwrap_or_else(|e| panic!("compile {kernel}: {e}"));
    p.launch(k, args).unwrap();
    match p.sync() {
        Ok(()) => Vec::new(),
        Err(e) => e.iter().map(|e| e.to_string()).collect(),
    }
}

fn fill(p: &mut Program) {
    let n = INTS.len();
    let a: Vec<f64> = (0..N).map(|k| INTS[k / n] as f64).collect();
    let b: Vec<f64> = (0..N).map(|k| INTS[k % n] as f64).collect();
    let f = FLOATS.len();
    let x: Vec<f64> = (0..N).map(|k| FLOATS[k % f] as f64).collect();
    let y: Vec<f64> = (0..N).map(|k| FLOATS[(k / f) % f] as f64).collect();
    for (name, v) in [("a", a), ("b", b), ("x", x), ("y", y)] {
        p.write_f64(name, &v).unwrap();
    }
}

fn bits(p: &Program, f: &str) -> Vec<u64> {
    p.field(f)
        .unwrap()
        .to_scalars()
        .iter()
        .map(|x| if x.to_f64().is_nan() { 1 } else { x.to_bits() })
        .collect()
}

const OUTPUTS: [&str; 11] = [
    "o0", "o1", "o2", "o3", "o4", "w0", "w1", "f0", "f1", "d0", "d1",
];

#[test]
fn new_arith_ops_match_the_interpreter_on_lavapipe() {
    let Some(dev) = device() else {
        return;
    };
    let src = src();
    let (mut v, mut i) = (program_on(&src, Box::new(dev)), interp(&src));
    for p in [&mut v, &mut i] {
        fill(p);
        for k in ["ints", "floats"] {
            assert_eq!(run(p, k, &[]), Vec::<String>::new(), "{k}");
        }
    }
    // The sweep holds INT_MIN / -1.
    assert!(i.read_f64("o1").unwrap().contains(&(i32::MIN as f64)));
    for f in OUTPUTS {
        assert_eq!(bits(&v, f), bits(&i, f), "field {f}");
    }
}

#[test]
fn rounding_division_by_zero_is_the_interpreters_error_on_lavapipe() {
    let args = |a: i32, b: i32| [Arg::Scalar(Scalar::I32(a)), Arg::Scalar(Scalar::I32(b))];
    let src = src();
    // Before the loop, then in the loop (b[5] is 0).
    for (a, b) in [(5, 0), (5, 1)] {
        let Some(dev) = device() else {
            return;
        };
        let (mut v, mut i) = (program_on(&src, Box::new(dev)), interp(&src));
        fill(&mut v);
        fill(&mut i);
        let want = run(&mut i, "div", &args(a, b));
        assert!(!want.is_empty());
        assert_eq!(run(&mut v, "div", &args(a, b)), want);
    }
}
