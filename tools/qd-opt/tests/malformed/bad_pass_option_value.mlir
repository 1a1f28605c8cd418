// ARGS: --pass=canonicalize{max-iterations=lots}
// EXIT: 2
module {
}
