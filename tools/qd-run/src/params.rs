//! Kernel parameter names. The IR does not keep SSA names, but each kernel argument's location
//! points at its `%name` in the source, so the name is read back from there; an argument whose
//! location does not (a kernel built in memory) is named `argN`.

use qd_frontend::KernelOp;
use qd_ir::Context;

/// The name (without `%`) of each parameter of `kernel`, parsed from `source` (named `file`).
pub fn names(ctx: &Context, kernel: KernelOp, source: &str, file: &str) -> Vec<String> {
    let lines: Vec<&str> = source.split('\n').collect();
    kernel
        .args(ctx)
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            ctx.file_line_col(ctx.value_loc(a))
                .filter(|(f, _, _)| *f == file)
                .and_then(|(_, line, col)| {
                    let text = lines.get((line as usize).checked_sub(1)?)?;
                    name_at(text, (col as usize).checked_sub(1)?)
                })
                .unwrap_or_else(|| format!("arg{i}"))
        })
        .collect()
}

/// The SSA name starting with `%` at byte `col` of `line`.
fn name_at(line: &str, col: usize) -> Option<String> {
    let rest = line.get(col..)?.strip_prefix('%')?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "_$.-".contains(*c))
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_source() {
        let src = "module {\n  qd.kernel @k(%w: !qd.ndarray<?xf32>, %lim_2: f32) {\n  }\n  \
                   \"qd.kernel\"() <{function_type = (i32) -> (), sym_name = \"g\"}> ({\n  \
                   ^bb0(%arg0: i32):\n  }) : () -> ()\n}\n";
        let mut ctx = qd_dialects::context();
        let m = qd_ir::text::parse_source(&mut ctx, src, "p.mlir").unwrap();
        let kernels: Vec<KernelOp> = ctx
            .region_ops(ctx.region(m, 0))
            .into_iter()
            .filter_map(|op| KernelOp::from_op(&ctx, op))
            .collect();
        assert_eq!(names(&ctx, kernels[0], src, "p.mlir"), vec!["w", "lim_2"]);
        assert_eq!(names(&ctx, kernels[1], src, "p.mlir"), vec!["arg0"]);
        // Another file's locations are not read from this source.
        assert_eq!(
            names(&ctx, kernels[0], src, "other.mlir"),
            vec!["arg0", "arg1"]
        );
    }

    #[test]
    fn name_at_column() {
        assert_eq!(name_at("(%a_1: f32)", 1), Some("a_1".into()));
        assert_eq!(name_at("(%a: f32)", 0), None);
        assert_eq!(name_at("%", 0), None);
        assert_eq!(name_at("x", 5), None);
    }
}
