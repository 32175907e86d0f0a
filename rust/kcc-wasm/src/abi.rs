//! The functions the page calls. Numbers in and out, text through memory the module lends
//! ([`kcc_alloc`]), vectors and the tick's report through the mailbox ([`crate::mailbox`]).
//! Nothing here panics on bad input: an unknown handle or bad settings give 0 and a reason in
//! [`kcc_error_ptr`] / [`kcc_error_len`]; unusable numbers are sanitized by the core (the
//! report's `SANITIZED` bits say which).

use std::cell::RefCell;

use glam::Vec3;
use kcc::TickInput;

use crate::characters::{self, Character};
use crate::host::HostBody;
use crate::mailbox;

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

fn fail(message: String) -> u32 {
    LAST_ERROR.with_borrow_mut(|error| *error = message);
    0
}

/// Address of the mailbox: [`mailbox::LEN`] `f32` slots.
#[unsafe(no_mangle)]
pub extern "C" fn kcc_mailbox() -> *mut f32 {
    mailbox::address()
}

/// Lends `len` bytes of the module's memory (zeroed) for the page to write text into; give
/// them back with [`kcc_release`].
#[unsafe(no_mangle)]
pub extern "C" fn kcc_alloc(len: u32) -> *mut u8 {
    let bytes = vec![0u8; len as usize].into_boxed_slice();
    Box::into_raw(bytes).cast::<u8>()
}

/// Gives back bytes lent by [`kcc_alloc`].
///
/// # Safety
/// `ptr` and `len` must be exactly what one earlier [`kcc_alloc`] call lent and returned, and
/// not yet given back.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kcc_release(ptr: *mut u8, len: u32) {
    if ptr.is_null() {
        return;
    }
    let slice = std::ptr::slice_from_raw_parts_mut(ptr, len as usize);
    // SAFETY: the caller gives back a box made by `kcc_alloc` with this length.
    drop(unsafe { Box::from_raw(slice) });
}

/// A character that moves the page's body `body`, with settings from the JSON text at
/// `settings` (`len` bytes; 0 bytes for the defaults; see
/// [`characters::settings_from_json`]). Its handle, or 0 with the reason in the error text.
///
/// # Safety
/// `settings` must point at `len` readable bytes (or `len` must be 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn kcc_character_new(body: u32, settings: *const u8, len: u32) -> u32 {
    let text: &[u8] = if len == 0 || settings.is_null() {
        &[]
    } else {
        // SAFETY: the caller lends `len` readable bytes at `settings`.
        unsafe { std::slice::from_raw_parts(settings, len as usize) }
    };
    match Character::from_json(body, text) {
        Ok(character) => characters::insert(character),
        Err(error) => fail(error.to_string()),
    }
}

/// Forgets a character: 1, or 0 when the handle is unknown.
#[unsafe(no_mangle)]
pub extern "C" fn kcc_character_free(handle: u32) -> u32 {
    if characters::remove(handle) {
        1
    } else {
        fail(format!("no character with handle {handle}"))
    }
}

/// Address of the last error's text (UTF-8, [`kcc_error_len`] bytes), valid until the next
/// call that fails.
#[unsafe(no_mangle)]
pub extern "C" fn kcc_error_ptr() -> *const u8 {
    LAST_ERROR.with_borrow(|error| error.as_ptr())
}

/// Length of the last error's text, bytes.
#[unsafe(no_mangle)]
pub extern "C" fn kcc_error_len() -> u32 {
    LAST_ERROR.with_borrow(|error| u32::try_from(error.len()).unwrap_or(0))
}

/// One physics tick of `dt` s (`kcc::Controller::tick_with`, the node's `tick`): wish direction
/// (world space, length 0..1), jump and crouch held (non-zero), the velocity before the tick
/// (m/s). Leaves the report in the mailbox ([`mailbox::report`]): 1, or 0 for an unknown
/// handle.
#[allow(clippy::too_many_arguments)]
#[unsafe(no_mangle)]
pub extern "C" fn kcc_tick(
    handle: u32,
    wish_x: f32,
    wish_y: f32,
    wish_z: f32,
    jump: u32,
    crouch: u32,
    vx: f32,
    vy: f32,
    vz: f32,
    dt: f32,
) -> u32 {
    let Some(Character {
        body,
        controller,
        mut state,
    }) = characters::get(handle)
    else {
        return fail(format!("no character with handle {handle}"));
    };
    let input = TickInput {
        wish_direction: Vec3::new(wish_x, wish_y, wish_z),
        jump: jump != 0,
        velocity: Vec3::new(vx, vy, vz),
        crouch: crouch != 0,
    };
    let report = controller.tick_with(&mut HostBody { id: body }, &input, &mut state, dt);
    characters::set_state(handle, state);
    mailbox::put_report(&report);
    1
}

/// `move_and_slide` with stair stepping (`kcc::Controller::move_and_step`, the node's
/// `move_and_step`) by a velocity (m/s) over `dt` (s). Leaves the report in the mailbox: 1, or
/// 0 for an unknown handle.
#[unsafe(no_mangle)]
pub extern "C" fn kcc_move_and_step(handle: u32, vx: f32, vy: f32, vz: f32, dt: f32) -> u32 {
    let Some(character) = characters::get(handle) else {
        return fail(format!("no character with handle {handle}"));
    };
    let mut body = HostBody { id: character.body };
    let report = character
        .controller
        .move_and_step(&mut body, Vec3::new(vx, vy, vz), dt);
    mailbox::put_report(&report);
    1
}
