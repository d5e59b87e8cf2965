/**
 * The login page's script, served as /oauth2/login.js: helmet's Content-Security-Policy
 * (script-src 'self') forbids inline scripts, so it is a file of its own and reads everything it
 * needs from the page's data attributes. EventSource reconnects by itself after a network error;
 * once the status is final the stream is closed so that no reconnect repeats it. A browser with the
 * W3C Digital Credentials API (feature-tested: DigitalCredential and navigator.credentials.get) is
 * offered its own wallet: a click (the API wants a user gesture) hands the session's requests (those
 * of the protocols the browser allows) to one navigator.credentials.get call, the answer is posted
 * back with the page's origin and the protocol it came by, and the verifier's redirect (with the
 * response_code the sign-in then needs) continues the sign-in. Elsewhere the button stays hidden
 * and the QR code and the same-device link are the way. An answer through the same-device link
 * shows as `awaiting_redirect`: only the wallet's redirect completes it, never this page (HAIP
 * 1.0), so the page just waits for the outcome.
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
  var viaBrowser = false;
  // Set when the session was verified while the browser's wallet was still open: a wallet on
  // another device answered first, and the sign-in completes as for the QR code.
  var verifiedElsewhere = false;
  function complete() {
    show('verified', 'Verified. Signing you in…');
    window.location.assign(main.getAttribute('data-complete'));
  }
  var link = document.getElementById('same-device');
  if (link) link.addEventListener('click', function () { sameDevice = true; });
  offerBrowserWallet();
  function offerBrowserWallet() {
    var offer = document.getElementById('dc-api');
    var button = document.getElementById('dc-api-button');
    var requests = main.getAttribute('data-dc-requests');
    var DC = window.DigitalCredential;
    if (!offer || !button || !requests || typeof DC === 'undefined') return;
    if (!navigator.credentials || typeof navigator.credentials.get !== 'function') return;
    // Every protocol the browser takes, in one call: it lets the user's wallet answer the one it
    // speaks (OpenID4VP, or ISO 18013-7 Annex C, org-iso-mdoc, as an iPhone's wallet does).
    requests = JSON.parse(requests).filter(function (r) {
      return typeof DC.userAgentAllowsProtocol !== 'function' || DC.userAgentAllowsProtocol(r.protocol);
    });
    if (requests.length === 0) return;
    offer.hidden = false;
    button.addEventListener('click', function () {
      button.disabled = true;
      viaBrowser = true;
      show('pending', 'Waiting for the wallet of your browser…');
      navigator.credentials.get({ digital: { requests: requests } }).then(function (credential) {
        if (!credential || !credential.data) throw new Error('no answer');
        var data = typeof credential.data === 'string' ? JSON.parse(credential.data) : credential.data;
        var answer = { origin: window.location.origin, data: data };
        // The protocol the wallet answered: the verifier opens an Annex C answer differently.
        if (typeof credential.protocol === 'string') answer.protocol = credential.protocol;
        return fetch(main.getAttribute('data-dc-response'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(answer),
        });
      }).then(function (res) {
        return res.json().then(function (body) {
          if (res.ok && body.redirect_uri) {
            show('verified', 'Verified. Signing you in…');
            window.location.assign(body.redirect_uri);
          } else if (verifiedElsewhere) {
            complete();
          } else if (!res.ok) {
            show('failed', 'Your wallet’s presentation was not accepted.');
            back.hidden = false;
          }
        });
      }).catch(function () {
        // Cancelled, or no wallet answered: the QR code and the link still work.
        viaBrowser = false;
        button.disabled = false;
        if (verifiedElsewhere) return complete();
        if (main.getAttribute('data-state') !== 'pending') return;
        show('pending', 'Your browser’s wallet did not answer. Scan the code or open your wallet instead.');
      });
    });
  }
  // Set once a wallet answered through the same-device link (opened here or wherever it was
  // relayed to): only its redirect, with the response_code, completes the sign-in.
  var redirected = false;
  var events = new EventSource(main.getAttribute('data-events'));
  events.addEventListener('status', function (e) {
    var s = JSON.parse(e.data).status;
    if (s === 'awaiting_redirect') {
      redirected = true;
      // The browser's wallet: the answer's redirect moves on; it says so itself.
      if (!viaBrowser) show('pending', 'Your wallet answered. Continue on the page it opens to sign in.');
    } else if (s === 'verified') {
      events.close();
      if (sameDevice || redirected) return show('verified', 'Verified. Your wallet brings you back to sign in.');
      // The browser's wallet: the answer's redirect (with its response_code) moves on, not this.
      if (viaBrowser) {
        verifiedElsewhere = true;
        return show('verified', 'Verified. Signing you in…');
      }
      complete();
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
