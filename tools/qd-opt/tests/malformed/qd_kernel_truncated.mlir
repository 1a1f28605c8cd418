// EXIT: 1
module {
  qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) {
    qd.range_for %i = 