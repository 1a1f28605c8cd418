//! determine-ad-stack-size against real runs on the reference interpreter: the examples
//! (differentiated, sized, run with their evaluated bounds) and random loop nests (the property
//! test: the evaluated bound is never below the real peak), and minimize-tape against the same
//! runs (elided stacks change no gradient and hold nothing; kept ones still overflow one entry
//! short of their exact bound).

mod common;
mod examples;
mod fields;
mod limits;
mod loop_shapes;
mod many_stacks;
mod minimize_tape;
mod property;
