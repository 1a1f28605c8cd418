//! MLIR text: lexer, parser and printer (generic form for every op, custom syntax through the
//! `asm` hooks), SSA naming, aliases, locations, and diagnostic rendering.
