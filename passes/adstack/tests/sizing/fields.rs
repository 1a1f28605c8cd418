//! Sizing resolves the fields its bounds read as `lookup_field` does, once per kernel: fields
//! declared before the kernels and after them, in every kernel of a module.

use super::common::*;

/// Kernels `@k0..@k{n}`, each with two stacks pushed `@n[]` and `@m[]` times; `@n` is declared
/// before the kernels, `@m` after them.
fn module(n: usize) -> String {
    let mut s = String::from("qd.field @n : !qd.field<i32>\n");
    for j in 0..n {
        s.push_str(&format!(
            "qd.kernel @k{j}(%v: f32) {{\n%c0 = arith.constant 0 : i32\n\
             %s = adstack.alloca : f32\n%t = adstack.alloca : f32\n\
             %a = qd.load @n[] : i32\n%b = qd.load @m[] : i32\n\
             qd.range_for %i = %c0 to %a : i32 {{\nadstack.push %s, %v : f32\n}}\n\
             qd.range_for %i2 = %c0 to %b : i32 {{\nadstack.push %t, %v : f32\n}}\n}}\n"
        ));
    }
    s.push_str("qd.field @m : !qd.field<i32>\n");
    s
}

#[test]
fn fields_declared_before_and_after_the_kernels_bound_stacks() {
    let (mut ctx, m) = parse(&module(3));
    size(&mut ctx, m);
    for j in 0..3 {
        let b: Vec<String> = bounds(&ctx, m, &format!("k{j}"))
            .into_iter()
            .map(|(_, e)| e.to_string())
            .collect();
        assert_eq!(b, ["@n[]:i32 - 0", "@m[]:i32 - 0"], "@k{j}");
    }
}
