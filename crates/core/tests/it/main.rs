//! The crate's integration tests as one test binary: each file of this folder is a module of
//! it, so the tests (and the generic code they instantiate) are compiled and linked once, not
//! once per file. They still run in parallel, as threads of this one process; a test that
//! needs a process of its own (it sets the environment, or measures the process) stays a file
//! of its own in `tests/` and says why. A new test file goes here, with its `mod` line below.

mod divisions;
mod fold;
mod matches;
mod person_lines;
