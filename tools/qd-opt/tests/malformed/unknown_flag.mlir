// ARGS: --frobnicate
// EXIT: 2
module {
}
