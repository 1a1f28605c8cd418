//! determine-ad-stack-size against real runs on the reference interpreter: the examples
//! (differentiated, sized, run with their evaluated bounds) and random loop nests (the property
//! test: the evaluated bound is never below the real peak).

mod common;
mod examples;
mod limits;
mod property;
