//! The headless world's course tests, in one test binary (one link instead of one per file):
//! stairs up and down, obstacles, slopes, rounded solids, tunnelling, bad input, settings
//! errors, motion semantics and the property tests.

mod common;

mod bad_input;
mod config;
mod floating;
mod generality;
mod ground_follow;
mod inexact_casts;
mod motion_semantics;
mod obstacles;
mod platforms;
mod properties;
mod rounded;
mod slopes;
mod stairs_down;
mod stairs_up;
mod tunnelling;
