//! Runs expected to fail (`kcc-sim run --known-failures FILE`): for an engine's own faults
//! that no controller can work around (Godot Physics' cylinders, its casts that end inside a
//! step's edge), so that the course on that engine still guards against every new failure.
//!
//! The file has one run a line, `scenario rate` (the rate in Hz as the table prints it), and
//! `#` starts a comment: the reason, measured. The command passes when exactly the listed runs
//! fail: a new failure fails it, and so does a listed run that passes (the list must shrink
//! when the cause is fixed).

use std::collections::BTreeSet;

/// A run: scenario name and tick rate as printed (`stairs_020@60`).
pub type RunKey = String;

/// The key of the run of `scenario` at `rate` Hz.
pub fn key(scenario: &str, rate: f64) -> RunKey {
    format!("{scenario}@{rate}")
}

/// The runs listed in `text` (see the module doc); the error names the line that is not
/// `scenario rate`.
pub fn parse(text: &str) -> Result<BTreeSet<RunKey>, String> {
    let mut runs = BTreeSet::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(rate), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "line {}: `{line}` is not `scenario rate`",
                index + 1
            ));
        };
        let rate: f64 = rate
            .parse()
            .ok()
            .filter(|r: &f64| r.is_finite() && *r > 0.0)
            .ok_or_else(|| format!("line {}: `{rate}` is not a tick rate in Hz", index + 1))?;
        runs.insert(key(name, rate));
    }
    Ok(runs)
}

/// How the failed runs compare with the known ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Failed runs that are not listed.
    pub unexpected: Vec<RunKey>,
    /// Listed runs that ran and passed.
    pub fixed: Vec<RunKey>,
    /// Runs that failed and are listed.
    pub known: usize,
}

impl Verdict {
    /// True when exactly the listed runs that ran failed.
    pub fn holds(&self) -> bool {
        self.unexpected.is_empty() && self.fixed.is_empty()
    }
}

/// Compares the runs that `ran` and those of them that `failed` with the `listed` ones (a
/// listed run that did not run is not judged).
pub fn judge(
    listed: &BTreeSet<RunKey>,
    ran: &BTreeSet<RunKey>,
    failed: &BTreeSet<RunKey>,
) -> Verdict {
    Verdict {
        unexpected: failed.difference(listed).cloned().collect(),
        fixed: listed
            .iter()
            .filter(|run| ran.contains(*run) && !failed.contains(*run))
            .cloned()
            .collect(),
        known: failed.intersection(listed).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(keys: &[&str]) -> BTreeSet<RunKey> {
        keys.iter().map(|k| k.to_string()).collect()
    }

    #[test]
    fn lines_are_runs_and_comments_are_reasons() {
        let text = "# Godot Physics\nspiral_stairs_cylinder 240   # stuck\n\nstairs_020 59.94\n";
        assert_eq!(
            parse(text).unwrap(),
            set(&["spiral_stairs_cylinder@240", "stairs_020@59.94"])
        );
        assert!(parse("stairs_020\n").unwrap_err().contains("line 1"));
        assert!(parse("a 60\nb sixty\n").unwrap_err().contains("line 2"));
        assert!(parse("a 0\n").is_err());
    }

    #[test]
    fn only_exactly_the_listed_failures_hold() {
        let listed = set(&["a@60", "b@240"]);
        let ran = set(&["a@60", "b@240", "c@60"]);
        assert!(judge(&listed, &ran, &set(&["a@60", "b@240"])).holds());
        let new = judge(&listed, &ran, &set(&["a@60", "b@240", "c@60"]));
        assert_eq!(new.unexpected, vec!["c@60".to_string()]);
        assert!(!new.holds());
        let fixed = judge(&listed, &ran, &set(&["a@60"]));
        assert_eq!(fixed.fixed, vec!["b@240".to_string()]);
        assert!(!fixed.holds());
        // A listed run that did not run is not judged.
        assert!(judge(&listed, &set(&["a@60"]), &set(&["a@60"])).holds());
    }
}
