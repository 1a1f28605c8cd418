// An expectation that is not met and a diagnostic that is not expected are both reported.
func.func @f() -> i32 {
  // expected-error@+1 {{this text is not in the message}}
  return
}
