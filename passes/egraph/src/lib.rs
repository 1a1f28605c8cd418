//! simplify-size-expr: e-graph (egg) simplification of adstack SizeExprs
