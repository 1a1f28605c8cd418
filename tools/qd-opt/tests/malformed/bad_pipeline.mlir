// ARGS: --pass-pipeline=builtin.module(cse
// EXIT: 2
module {
}
