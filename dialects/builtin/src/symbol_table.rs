//! Symbol tables: ops with the SYMBOL_TABLE trait map symbol names to the ops that define them.
