//! Tests of the command analyser: the effect table and bounded robustness properties.

mod props;
mod table;
