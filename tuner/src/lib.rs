//! placeholder until its issue
