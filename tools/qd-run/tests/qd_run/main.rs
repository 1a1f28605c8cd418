//! End-to-end tests of the qd-run binary (one test binary, one module per concern).

mod adstack;
mod cli;
mod common;
mod corpus;
mod devices;
mod errors;
mod exactness;
mod grad;
mod guard;
mod limits;
mod loop_limit;
mod outputs;
mod save;
mod sequence;
mod timeout;
