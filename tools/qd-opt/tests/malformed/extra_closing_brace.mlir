// EXIT: 1
module {
}
}
