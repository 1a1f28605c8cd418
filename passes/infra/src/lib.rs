//! Pass trait, nested pass manager, pipeline grammar, registry, options, timing
