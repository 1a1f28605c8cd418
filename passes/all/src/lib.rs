//! register_all_passes: the one list of qd's passes. Tools (qd-opt) call it once; a new pass is
//! added here and nowhere else.

use qd_pass::PassRegistry;

/// Registers every pass of qd.
pub fn register_all_passes(reg: &mut PassRegistry) {
    use qd_transforms::*;
    reg.register(canonicalize_pass_info());
    reg.register(cse_pass_info());
    reg.register(dce_pass_info());
    reg.register(symbol_dce_pass_info());
    reg.register(qd_autodiff::element_access_ad_pass_info());
    reg.register(qd_autodiff::reverse_mode_ad_pass_info());
    reg.register(qd_adstack_passes::minimize_tape_pass_info());
    reg.register(qd_adstack_passes::determine_ad_stack_size_pass_info());
    reg.register(qd_egraph::simplify_size_expr_pass_info());
    reg.register(qd_lowering::convert_qd_to_lowered_pass_info());
    reg.register(qd_fusion::fuse_elementwise_pass_info());
}

/// A registry with every pass of qd.
pub fn all_passes() -> PassRegistry {
    let mut reg = PassRegistry::new();
    register_all_passes(&mut reg);
    reg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_is_registered_under_its_own_name() {
        let reg = all_passes();
        let names: Vec<_> = reg.iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "canonicalize",
                "convert-qd-to-lowered",
                "cse",
                "dce",
                "determine-ad-stack-size",
                "element-access-ad",
                "fuse-elementwise",
                "minimize-tape",
                "reverse-mode-ad",
                "simplify-size-expr",
                "symbol-dce"
            ]
        );
        for info in reg.iter() {
            let pass = info
                .create_default()
                .unwrap_or_else(|e| panic!("{}: {e}", info.name));
            // The registry name, the pass's own name and the CLI name agree.
            assert_eq!(pass.name(), info.name);
            assert_eq!(pass.description(), info.description);
            assert!(!info.description.is_empty());
        }
    }

    #[test]
    fn the_full_pipeline_parses() {
        let reg = all_passes();
        let pm = qd_pass::PassManager::parse(
            &reg,
            "builtin.module(qd.kernel(element-access-ad),reverse-mode-ad{kernels=k aggregates=element},canonicalize{max-iterations=4},cse,dce,symbol-dce)",
        )
        .unwrap();
        assert_eq!(pm.root().len(), 6);
    }
}

#[cfg(test)]
mod honesty_tests;
