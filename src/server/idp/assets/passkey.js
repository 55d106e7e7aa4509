// A sign-in with a passkey (issue 29) on the provider's pages, with SimpleWebAuthnBrowser (webauthn.js, loaded
// before): the button asks the provider for the ceremony's options, the browser asks the device (PIN, fingerprint),
// and the form posts the device's answer; the provider checks it and goes on as after any sign-in.
document.addEventListener('DOMContentLoaded', function () {
  var button = document.getElementById('passkey-button');
  var form = document.getElementById('passkey-form');
  var message = document.getElementById('passkey-error');
  if (!button || !form || !window.SimpleWebAuthnBrowser || !window.SimpleWebAuthnBrowser.browserSupportsWebAuthn()) return;
  button.hidden = false;
  document.getElementById('passkey-unsupported').hidden = true;
  function fail() {
    message.textContent = message.getAttribute('data-text');
    message.hidden = false;
    button.disabled = false;
  }
  button.addEventListener('click', function () {
    button.disabled = true;
    message.hidden = true;
    fetch(button.getAttribute('data-options'), { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) throw new Error('options ' + response.status);
        return response.json();
      })
      .then(function (answer) {
        return window.SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: JSON.parse(answer.options) });
      })
      .then(function (credential) {
        form.elements.namedItem('credential').value = JSON.stringify(credential);
        form.submit();
      })
      .catch(fail);
  });
});
