//! `--print-irdl`: qd's dialects in IRDL (qd_ir::irdl), for `mlir-opt --irdl-file`.

use qd_ir::Context;

/// The IRDL of every registered dialect that upstream MLIR does not define, in registration order.
pub fn print_irdl() -> Result<String, String> {
    let ctx = context();
    qd_ir::irdl::print_irdl(&ctx, &qd_ir::irdl::irdl_dialects(&ctx))
}

fn context() -> Context {
    let mut ctx = Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx
}

#[cfg(test)]
mod tests {
    use super::*;
    use qd_ir::op_def::{Arity, OpDef, ValueDef};

    /// The body lines of `irdl.operation @op` inside `irdl.dialect @dialect`.
    fn op_body<'t>(text: &'t str, dialect: &str, op: &str) -> Vec<&'t str> {
        let d = text
            .find(&format!("irdl.dialect @{dialect} {{"))
            .unwrap_or_else(|| panic!("no dialect {dialect}"));
        let text = &text[d..];
        let end = text.find("\n}\n").expect("dialect closed");
        let text = &text[..end];
        let start = text
            .find(&format!("  irdl.operation @{op} {{\n"))
            .unwrap_or_else(|| panic!("no irdl.operation @{op} in @{dialect}"));
        text[start..]
            .lines()
            .skip(1)
            .take_while(|l| *l != "  }")
            .map(str::trim)
            .collect()
    }

    /// `irdl.operands(a: %a, b: variadic %b)` as written for `group`, or None for an empty one.
    fn expected(what: &str, group: &[ValueDef]) -> Option<String> {
        if group.is_empty() {
            return None;
        }
        let items: Vec<String> = group
            .iter()
            .map(|v| {
                let arity = match v.arity {
                    Arity::Single => "",
                    Arity::Optional => "optional ",
                    Arity::Variadic => "variadic ",
                };
                format!("{}: {arity}%{}", v.name, v.name)
            })
            .collect();
        Some(format!("irdl.{what}({})", items.join(", ")))
    }

    #[test]
    fn every_op_of_our_dialects_is_in_the_irdl_with_its_declared_arity() {
        let ctx = context();
        let dialects = qd_ir::irdl::irdl_dialects(&ctx);
        for d in ["qd", "ad", "adstack", "lowered"] {
            assert!(dialects.contains(&d), "{d} is described");
        }
        for d in qd_ir::irdl::UPSTREAM_DIALECTS {
            assert!(!dialects.contains(d), "{d} is upstream MLIR's");
        }
        let text = print_irdl().expect("every op is declared");
        let mut ops = 0;
        for info in ctx.registered_ops() {
            let (dialect, op) = info.name.split_once('.').unwrap();
            if !dialects.contains(&dialect) {
                assert!(!text.contains(&format!("irdl.dialect @{dialect} ")));
                continue;
            }
            ops += 1;
            let def = OpDef::of(info).unwrap_or_else(|| panic!("{} has no OpDef", info.name));
            let body = op_body(&text, dialect, op);
            let line = |prefix: &str| body.iter().find(|l| l.starts_with(prefix)).copied();
            assert_eq!(
                line("irdl.operands(").map(str::to_string),
                expected("operands", def.operands),
                "{}",
                info.name
            );
            assert_eq!(
                line("irdl.results(").map(str::to_string),
                expected("results", def.results),
                "{}",
                info.name
            );
            let regions: Vec<String> = def
                .regions
                .iter()
                .map(|r| format!("{}: %{}", r.name, r.name))
                .collect();
            let want =
                (!regions.is_empty()).then(|| format!("irdl.regions({})", regions.join(", ")));
            assert_eq!(
                line("irdl.regions(").map(str::to_string),
                want,
                "{}",
                info.name
            );
            for p in def.props {
                let listed = line("irdl.attributes {")
                    .is_some_and(|l| l.contains(&format!("\"{}\" = %{}", p.name, p.name)));
                assert_eq!(listed, p.required, "{}: property {}", info.name, p.name);
            }
            // Each operand, result and required property has its constraint value.
            for name in def
                .operands
                .iter()
                .chain(def.results)
                .map(|v| v.name)
                .chain(def.props.iter().filter(|p| p.required).map(|p| p.name))
            {
                assert!(
                    body.iter()
                        .any(|l| l.starts_with(&format!("%{name} = irdl."))),
                    "{}: no constraint for {name}",
                    info.name
                );
            }
        }
        assert!(ops > 60, "{ops} ops");
    }

    #[test]
    fn the_types_ops_use_are_declared() {
        let text = print_irdl().unwrap();
        for decl in [
            "irdl.dialect @qd {",
            "  irdl.type @field_type {",
            "  irdl.type @ndarray {",
            "  irdl.type @ptr {",
            "  irdl.type @array {",
            "  irdl.type @struct {",
            "irdl.dialect @adstack {",
            "  irdl.type @stack {",
            "  irdl.attribute @size {",
            "irdl.dialect @lowered {",
        ] {
            assert!(text.contains(decl), "missing {decl}");
        }
        // Deterministic: the same text every time.
        assert_eq!(text, print_irdl().unwrap());
    }
}
