//! What the node keeps between ticks so that a tick asks Godot nothing it already knows: the
//! controller built from the inspector's properties, which input actions exist, the yaw node
//! (and, in `RustCharacterBody3D` itself, the `KinematicCollision3D` its motion tests write into).
//!
//! Each is a [`Keyed`] value: made again only when what it is made from changes (a property, an
//! action's name), compared by value each tick, which costs no allocation and no engine call.

/// A value made from a key, kept until the key changes.
#[derive(Debug, Clone, Default)]
pub struct Keyed<K, V> {
    /// The key the value was made from, and the value; `None` before the first use.
    kept: Option<(K, V)>,
}

impl<K: PartialEq, V> Keyed<K, V> {
    /// The value for `key`: the kept one when `key` equals the key it was made from, else
    /// `make(&key)`, kept from now on.
    pub fn get(&mut self, key: K, make: impl FnOnce(&K) -> V) -> &V {
        let stale = self.kept.as_ref().is_none_or(|(kept, _)| *kept != key);
        if stale {
            let value = make(&key);
            self.kept = Some((key, value));
        }
        &self.kept.as_ref().expect("kept just above").1
    }

    /// Forgets the kept value: the next [`get`](Self::get) makes it again (the yaw node path
    /// changed, the node entered the tree).
    pub fn clear(&mut self) {
        self.kept = None;
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    #[test]
    fn a_value_is_made_once_per_key_and_again_when_the_key_changes() {
        let made = Cell::new(0);
        let mut keyed = Keyed::default();
        let make = |key: &(f32, i32)| {
            made.set(made.get() + 1);
            key.0 * key.1 as f32
        };
        for _ in 0..100 {
            assert_eq!(*keyed.get((0.5, 4), make), 2.0);
        }
        assert_eq!(
            made.get(),
            1,
            "one make for 100 ticks with the same properties"
        );
        assert_eq!(*keyed.get((0.25, 4), make), 1.0);
        assert_eq!(made.get(), 2, "a changed property makes it again");
        keyed.clear();
        assert_eq!(*keyed.get((0.25, 4), make), 1.0);
        assert_eq!(made.get(), 3, "cleared: made again");
    }
}
