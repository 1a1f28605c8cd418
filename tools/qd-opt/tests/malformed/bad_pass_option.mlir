// ARGS: --pass=canonicalize{no-such-option=3}
// EXIT: 2
module {
}
