// A generic-form sample used by the robustness tests.
#attr = {k = 1 : i32}
!alias = !test.box<?xf32>
#loc0 = loc("orig.py":3:4)
"t.func"() ({
^bb0(%arg0: i32, %arg1: f32 loc("arg.py":1:1)):
  %0 = "t.const"() <{value = 42 : i32, f = 0x7FC00000 : f32}> : () -> i32
  %1:2 = "t.pair"(%0, %arg1) {d = #attr, s = "q\"\\"} : (i32, f32) -> (i32, f32)
  "t.br"(%1#0)[^bb1] : (i32) -> () loc(#loc0)
^bb1:
  "t.cond"(%1#1)[^bb1, ^bb2] : (f32) -> ()
^bb2(%2: i32):
  "t.region"() ({
    %3 = "t.use"(%2, %4) : (i32, i32) -> i32
    %4 = "t.use"(%3, %3) : (i32, i32) -> i32
  }, {
  ^bb0:
  }) : () -> !alias
  "t.ret"() : () -> () loc(fused["a":1:2, "b":3:4])
}) {sym_name = "f", arr = [array<f32: 1.5>, @a::@b, unit, -3 : si8, 200 : ui8]} : () -> ()
