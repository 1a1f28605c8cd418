//! The IR verifier: structure, terminators, operand dominance, symbol uses, and each op's own verifier.
