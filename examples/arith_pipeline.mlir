// A small module for the main job: constants fold, duplicates merge, an unused private symbol goes.
module {
  "test.func"() <{sym_name = "unused_helper", sym_visibility = "private"}> ({
  }) : () -> ()
  "test.func"() <{sym_name = "main"}> ({
  ^bb0(%x: f32, %n: i32):
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %six = arith.muli %c2, %c3 : i32
    %m = arith.addi %n, %six : i32
    %m2 = arith.addi %n, %six : i32
    %half = arith.constant 0.5 : f32
    %s = math.sin %x : f32
    %a = arith.mulf %s, %half : f32
    %b = arith.mulf %s, %half : f32
    %sum = arith.addf %a, %b : f32
    %zero = arith.constant 0 : i32
    %same = arith.addi %m2, %zero : i32
    "test.use"(%sum, %m, %same) : (f32, i32, i32) -> ()
  }) : () -> ()
}
