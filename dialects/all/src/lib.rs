//! register_all_dialects: the one list of qd's dialects
