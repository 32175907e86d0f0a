//! Normalized ADSR curves: speed as a fraction of top speed (0..1) against time as a fraction of
//! the attack or release time (0..1).
//!
//! Attack `v = 1 - (1 - t)^2` rises fast and eases into top speed; release `v = (1 - t)^2` drops
//! fast and eases into rest. Both are inverted to find `t` from the current speed, so the curve
//! position needs no stored state and the result does not depend on the tick rate.

/// Closer than this to the end of a curve counts as the end (absorbs `f32` rounding of `t`).
const END_EPSILON: f32 = 1e-5;

/// Attack curve: normalized speed after normalized time `t` (clamped to 0..1) of attack.
pub fn attack(t: f32) -> f32 {
    let rest = 1.0 - t.clamp(0.0, 1.0);
    1.0 - rest * rest
}

/// Inverse of [`attack`]: normalized attack time at normalized speed `v` (clamped to 0..1).
pub fn attack_inverse(v: f32) -> f32 {
    1.0 - (1.0 - v.clamp(0.0, 1.0)).sqrt()
}

/// Release curve: normalized speed after normalized time `t` of release. Below `t = 0` it
/// extends the same parabola, so a speed above the top speed also decays smoothly.
pub fn release(t: f32) -> f32 {
    let rest = 1.0 - t.min(1.0);
    rest * rest
}

/// Inverse of [`release`]: normalized release time at normalized speed `v` (0 or more). A speed
/// above 1 gives a negative time, which [`release`] maps back.
pub fn release_inverse(v: f32) -> f32 {
    1.0 - v.max(0.0).sqrt()
}

/// Moves normalized speed `current` toward `target` along the curves: up along the attack curve
/// by `attack_step`, or down along the release curve by `release_step` (steps are `dt / time`).
/// Never overshoots `target`; reaches it exactly when the curve ends.
pub fn approach(current: f32, target: f32, attack_step: f32, release_step: f32) -> f32 {
    if current < target {
        let t = attack_inverse(current) + attack_step;
        if t >= 1.0 - END_EPSILON {
            return target;
        }
        attack(t).min(target)
    } else if current > target {
        let t = release_inverse(current) + release_step;
        if t >= 1.0 - END_EPSILON {
            return target;
        }
        release(t).max(target)
    } else {
        current
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_values_at_known_points() {
        assert_eq!(attack(0.0), 0.0);
        assert_eq!(attack(1.0), 1.0);
        assert!((attack(0.5) - 0.75).abs() < 1e-6);
        assert_eq!(release(0.0), 1.0);
        assert_eq!(release(1.0), 0.0);
        assert!((release(0.5) - 0.25).abs() < 1e-6);
        // Outside the unit interval the attack clamps and the release keeps its parabola.
        assert_eq!(attack(2.0), 1.0);
        assert!((release(-1.0) - 4.0).abs() < 1e-6);
    }

    #[test]
    fn inverses_recover_time() {
        for i in 0..=100 {
            let t = i as f32 / 100.0;
            assert!(
                (attack_inverse(attack(t)) - t).abs() < 2e-3,
                "attack at {t}"
            );
            assert!(
                (release_inverse(release(t)) - t).abs() < 2e-3,
                "release at {t}"
            );
        }
        assert!((release_inverse(4.0) + 1.0).abs() < 1e-6);
    }

    #[test]
    fn approach_never_overshoots_and_reaches_target() {
        assert_eq!(approach(0.0, 0.5, 10.0, 0.1), 0.5);
        assert_eq!(approach(1.0, 0.25, 0.1, 10.0), 0.25);
        let up = approach(0.0, 1.0, 0.5, 0.5);
        assert!((up - 0.75).abs() < 1e-6);
        let down = approach(1.0, 0.0, 0.5, 0.5);
        assert!((down - 0.25).abs() < 1e-6);
        assert_eq!(approach(0.3, 0.3, 0.1, 0.1), 0.3);
    }
}
