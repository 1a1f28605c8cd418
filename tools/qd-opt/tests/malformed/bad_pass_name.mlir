// ARGS: --pass=no-such-pass
// EXIT: 2
module {
}
