/**
 * The login page's script, served as /oauth2/login.js: helmet's Content-Security-Policy
 * (script-src 'self') forbids inline scripts, so it is a file of its own and reads everything it
 * needs from the page's data attributes. EventSource reconnects by itself after a network error;
 * once the status is final the stream is closed so that no reconnect repeats it.
 */
export const LOGIN_SCRIPT = `'use strict';
(function () {
  var main = document.getElementById('login');
  var status = document.getElementById('status');
  var back = document.getElementById('return');
  // The page states the expiry in UTC (it is rendered without knowing the reader's zone); show it in theirs.
  var expiry = document.querySelector('.expiry time');
  if (expiry) expiry.textContent = new Date(expiry.getAttribute('datetime')).toLocaleString();
  if (!main || !status || typeof EventSource === 'undefined') return;
  function show(state, text) {
    main.setAttribute('data-state', state);
    status.textContent = text;
  }
  // A wallet opened through the same-device link brings the browser back itself, with the
  // response_code the sign-in needs; this page then only says so.
  var sameDevice = false;
  var link = document.getElementById('same-device');
  if (link) link.addEventListener('click', function () { sameDevice = true; });
  var events = new EventSource(main.getAttribute('data-events'));
  events.addEventListener('status', function (e) {
    var s = JSON.parse(e.data).status;
    if (s === 'verified') {
      events.close();
      if (sameDevice) return show('verified', 'Verified. Your wallet brings you back to sign in.');
      show('verified', 'Verified. Signing you in…');
      window.location.assign(main.getAttribute('data-complete'));
    } else if (s === 'failed') {
      events.close();
      show('failed', 'Your wallet’s presentation was not accepted.');
      back.hidden = false;
    } else if (s === 'expired') {
      events.close();
      show('expired', 'This sign-in request has expired.');
      back.hidden = false;
    }
  });
  events.addEventListener('error', function () {
    if (events.readyState === EventSource.CONNECTING) show('pending', 'Connection lost; reconnecting…');
  });
  events.addEventListener('open', function () {
    if (main.getAttribute('data-state') === 'pending') status.textContent = 'Waiting for your wallet…';
  });
})();
`;
