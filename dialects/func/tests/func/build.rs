//! Building functions in Rust: the builders make IR that verifies and prints as expected.

use crate::*;
use qd_func::{CallOp, ConstantOp, FuncOp, ReturnOp};
use qd_ir::builtin::create_module;
use qd_ir::Builder;

#[test]
fn builders_make_verified_functions() {
    let mut c = ctx();
    let loc = c.file_loc("t.mlir", 1, 1);
    let (m, body) = create_module(&mut c, loc);
    let i32t = c.i32_type();
    let (decl, none) = FuncOp::build(
        &mut Builder::at_end(&mut c, body),
        "g",
        &[i32t],
        &[i32t],
        false,
        loc,
    );
    assert!(none.is_none() && decl.is_declaration(&c));
    let (f, entry) = FuncOp::build(
        &mut Builder::at_end(&mut c, body),
        "f",
        &[i32t],
        &[i32t],
        true,
        loc,
    );
    let entry = entry.unwrap();
    let a = f.args(&c)[0];
    let mut b = Builder::at_end(&mut c, entry);
    let call = CallOp::build(&mut b, "g", &[a], &[i32t], loc);
    let fty = b.ctx.function_type(vec![i32t], vec![i32t]);
    ConstantOp::build(&mut b, "g", fty, loc);
    let r = b.ctx.result(call.0, 0);
    ReturnOp::build(&mut b, &[r], loc);
    qd_ir::verifier::verify(&c, m).expect("verifies");
    assert_eq!(call.callee(&c), Some("g"));
    assert_eq!(
        (f.name(&c), f.inputs(&c), f.results(&c)),
        ("f", &[i32t][..], &[i32t][..])
    );
    let out = print(&c, m, false);
    assert!(out.contains("  func.func private @g(i32) -> i32\n  func.func @f(%arg0: i32) -> i32 {\n    %0 = call @g(%arg0) : (i32) -> i32\n    %f = constant @g : (i32) -> i32\n    return %0 : i32\n  }\n"), "{out}");
}
