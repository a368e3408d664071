//! Tests of the command analyser: the effect table and bounded robustness properties.

mod cases;
mod containment;
mod containment_cases;
mod containment_cases2;
mod props;
mod reading;
mod table;
