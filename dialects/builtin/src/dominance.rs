//! Dominance per region: block dominance on the region's CFG, op order within a block.
