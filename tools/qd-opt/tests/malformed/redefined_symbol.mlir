// EXIT: 1
module {
  module @a {
  }
  module @a {
  }
}
