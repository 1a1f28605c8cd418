//! register_all_passes: the one list of qd's passes
