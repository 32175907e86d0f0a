//! The characters the page created: a controller and its memory (`kcc::CharacterState`) per
//! handle, and the settings they are made from.

use std::cell::RefCell;

use kcc::{CharacterState, ConfigError, Controller, ControllerSettings};
use thiserror::Error;

/// Why a character could not be made.
#[derive(Debug, Error)]
pub enum SettingsError {
    /// The settings text is not UTF-8.
    #[error("settings: not UTF-8 text ({0})")]
    NotUtf8(#[from] std::str::Utf8Error),
    /// The settings text is not JSON of `kcc::ControllerSettings`'s shape.
    #[error("settings: {0}")]
    Json(#[from] serde_json::Error),
    /// A setting is out of its range.
    #[error("settings: {0}")]
    Invalid(#[from] ConfigError),
}

/// Settings from JSON text with the fields of `kcc::ControllerSettings` (snake_case, nested as
/// the structs are: `{"stairs": {"max_step_height": 0.3}}`); missing fields keep their defaults,
/// unknown ones are refused. Empty text gives the defaults.
pub fn settings_from_json(text: &[u8]) -> Result<ControllerSettings, SettingsError> {
    let text = std::str::from_utf8(text)?;
    if text.trim().is_empty() {
        return Ok(ControllerSettings::default());
    }
    Ok(serde_json::from_str(text)?)
}

/// One character: which body of the page it moves, its controller and its memory.
#[derive(Debug, Clone)]
pub struct Character {
    /// The page's id of the body, passed to every import.
    pub body: u32,
    /// The controller with the character's settings.
    pub controller: Controller,
    /// Jump timers and crouch, carried from tick to tick.
    pub state: CharacterState,
}

impl Character {
    /// A character that moves the page's body `body` with settings from JSON text (see
    /// [`settings_from_json`]); every value is validated.
    pub fn from_json(body: u32, settings: &[u8]) -> Result<Self, SettingsError> {
        Ok(Self {
            body,
            controller: Controller::new(settings_from_json(settings)?)?,
            state: CharacterState::default(),
        })
    }
}

thread_local! {
    static TABLE: RefCell<Vec<Option<Character>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `character` and returns its handle (1 or more).
pub fn insert(character: Character) -> u32 {
    TABLE.with_borrow_mut(|table| {
        let index = match table.iter().position(Option::is_none) {
            Some(free) => {
                table[free] = Some(character);
                free
            }
            None => {
                table.push(Some(character));
                table.len() - 1
            }
        };
        u32::try_from(index + 1).unwrap_or(0)
    })
}

/// A copy of the character behind `handle`. The table is not borrowed while the character
/// runs, so a host that calls back into the module cannot find it borrowed.
pub fn get(handle: u32) -> Option<Character> {
    let index = index_of(handle)?;
    TABLE.with_borrow(|table| table.get(index).cloned().flatten())
}

/// Stores the memory a tick left; false when `handle` is gone.
pub fn set_state(handle: u32, state: CharacterState) -> bool {
    with_slot(handle, |slot| {
        slot.state = state;
    })
}

/// Forgets the character; false when `handle` is unknown.
pub fn remove(handle: u32) -> bool {
    let Some(index) = index_of(handle) else {
        return false;
    };
    TABLE.with_borrow_mut(|table| table.get_mut(index).and_then(Option::take).is_some())
}

/// Where `handle` sits in the table (handles start at 1; 0 is never one).
fn index_of(handle: u32) -> Option<usize> {
    usize::try_from(handle).ok()?.checked_sub(1)
}

fn with_slot(handle: u32, change: impl FnOnce(&mut Character)) -> bool {
    let Some(index) = index_of(handle) else {
        return false;
    };
    TABLE.with_borrow_mut(|table| match table.get_mut(index) {
        Some(Some(character)) => {
            change(character);
            true
        }
        _ => false,
    })
}
