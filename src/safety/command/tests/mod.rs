//! Tests of the command analyser: the effect table and bounded robustness properties.

mod cases;
mod props;
mod table;
