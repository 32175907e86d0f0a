// The Godot world's carrier of the oracle's calls (see page.html). It holds one WebSocket to
// kcc-sim (/rpc-ws) and a SharedArrayBuffer it shares with the page: the page posts each call
// here and spins on the buffer's state word until this worker has written the answer into it.
// A synchronous XMLHttpRequest per call cost Chromium about 3.5 ms of work; a message on an open
// WebSocket costs a small fraction of that.
'use strict';
// State word (Int32 0): 0 waiting, 1 answer ready (its length in Int32 1, its UTF-8 bytes from
// byte 8 on), 2 the connection failed or closed (the page then ends the session).
var state = null;
var bytes = null;
var socket = null;
var queued = [];
var encoder = new TextEncoder();

function answer(text) {
  var encoded = encoder.encode(text);
  if (encoded.length > bytes.length) {
    fail();
    return;
  }
  bytes.set(encoded);
  Atomics.store(state, 1, encoded.length);
  Atomics.store(state, 0, 1);
}

function fail() {
  Atomics.store(state, 0, 2);
}

onmessage = function (event) {
  var message = event.data;
  if (message.shared) {
    state = new Int32Array(message.shared, 0, 2);
    bytes = new Uint8Array(message.shared, 8);
    socket = new WebSocket(message.url);
    socket.onopen = function () {
      queued.splice(0).forEach(function (text) {
        socket.send(text);
      });
    };
    socket.onmessage = function (reply) {
      answer(reply.data);
    };
    socket.onerror = fail;
    socket.onclose = fail;
    return;
  }
  if (socket.readyState === WebSocket.OPEN) {
    socket.send(message);
  } else if (socket.readyState === WebSocket.CONNECTING) {
    queued.push(message);
  } else {
    fail();
  }
};
