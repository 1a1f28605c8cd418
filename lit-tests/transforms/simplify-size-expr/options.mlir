// Options, statistics and errors.
// RUN: qd-opt %s --pass='simplify-size-expr{iter-limit=0}' | FileCheck %s --check-prefix=NOITER
// RUN: qd-opt %s --pass='simplify-size-expr{iter-limit=8 node-limit=500}' | FileCheck %s --check-prefix=LIMITS
// RUN: qd-opt %s --pass=simplify-size-expr --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: not qd-opt %s --pass='simplify-size-expr{node-limit=99999999}' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not qd-opt %s --pass='simplify-size-expr{iter-limit=x}' 2>&1 | FileCheck %s --check-prefix=BADVALUE

// RANGE: node-limit=99999999 is too large (at most 1048576)
// BADVALUE: invalid value 'x' for option 'iter-limit'

// Without iterations only the analysis folds (literals); the range stays.
// NOITER-LABEL: qd.kernel @k
// NOITER: adstack.alloca : f32 {max_size = 5, size_expr = #adstack.size<5>}
// NOITER: adstack.alloca : f32 {size_expr = #adstack.size<max(v0 for v0 in range(0, @n[]:i32))>}

// Small limits still find the end point of the triangle.
// LIMITS: adstack.alloca : f32 {max_size = 5, size_expr = #adstack.size<5>}
// LIMITS: adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 - 1>}

// Nodes before: 2, 3, + (3) and 0, @n, v0, range (4); after: 5 (1) and @n, 1, - (3).
// STATS: SimplifySizeExpr
// STATS-NEXT: (S) 2 num-simplified - Number of adstack bounds rewritten
// STATS-NEXT: (S) 7 nodes-before - SizeExpr nodes before simplification
// STATS-NEXT: (S) 4 nodes-after - SizeExpr nodes after simplification
// STATS-NEXT: (S) 0 num-fused - Number of sub-of-MaxOverRange fusions
// STATS-NEXT: (S) {{[0-9]+}} num-limit-hits - Number of e-graph runs stopped by the iteration or node limit
qd.field @n : !qd.field<i32>
qd.kernel @k(%v: f32) {
  %a = adstack.alloca : f32 {size_expr = #adstack.size<2 + 3>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 for v0 in range(0, @n[]:i32))>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
}
