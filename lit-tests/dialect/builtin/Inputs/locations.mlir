// Locations, for text_fidelity.mlir (printed with --mlir-print-debuginfo by qd-opt and mlir-opt).
func.func @f(%a: i32 loc(fused["a.c":1:2, "named"("b.c":1:1)]), %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32 loc("named"("b.c":1:1))
  %1 = arith.muli %0, %a : i32 loc("x.py":3:7)
  %2 = arith.subi %1, %a : i32 loc(unknown)
  %3 = arith.xori %2, %a : i32 loc(fused["a.c":1:2, "b.c":3:4])
  %4 = arith.ori %3, %a : i32
  "t.br"(%4)[^bb1] : (i32) -> ()
^bb1(%x: i32):
  "t.c"() : () -> () loc(callsite("f.c":1:1 at callsite("g.c":2:2 at "h.c":3:3)))
  "t.d"() : () -> () loc(fused<{k = 1}>["a.c":1:2])
  "t.e"() : () -> () loc("only_name")
  "t.e2"() : () -> () loc("only_name"(unknown))
  "t.f"() : () -> () loc(#l2)
  %r:2 = "t.two"(%x) {m = affine_map<(d0) -> (d0 + 1)>} : (i32) -> (i32, i32) loc(#l)
  return %r#1 : i32
}
"t.g"() ({
^bb0(%y: f32 loc(unknown), %z: f32 loc("k"("q.c":9:9))):
  "t.h"() : () -> ()
}) : () -> ()
#l = loc("aliased.py":4:4)
#l2 = loc(fused<"meta">[#l, "z.c":1:1])
