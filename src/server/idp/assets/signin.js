// Home-realm discovery on the provider's sign-in page (issue 45), as progressive enhancement: as the e-mail is typed
// (after a pause) or left, the page asks the provider whether the address's domain signs in through single sign-on.
// When it does, the password hides (and is not sent), 'Sign in' reads 'Continue' (the provider then sends the address
// to its IdP) and 'Use my password instead' brings the password back, unless the domain requires single sign-on.
// A password already typed or filled in by a password manager is left alone: its owner chose it. Without this script
// the page works as it is served.
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('signin-form');
  var email = document.getElementById('email');
  var password = document.getElementById('password');
  var passwordField = document.getElementById('password-field');
  var submit = document.getElementById('signin-submit');
  var usePassword = document.getElementById('use-password');
  var status = document.getElementById('realm-status');
  if (!form || !email || !password || !passwordField || !submit || !usePassword || !status || !window.fetch || !window.AbortController) return;

  // a pause in typing, and the moment after leaving the field (a password manager or a quick Tab fills the password first)
  var TYPING_PAUSE_MS = 600;
  var LEFT_MS = 150;
  var answers = {};
  var asking = {};
  var passwordChosen = {};
  var mode = 'password';
  var timer;
  // set once the form is sent: the sign-in may end the interaction before a lookup would reach it (answered 400)
  var sent = new AbortController();

  function domainOf(value) {
    var match = /^[^@\s]+@([^@\s]+\.[^@\s]+)$/.exec(value.trim());
    return match ? match[1].toLowerCase() : '';
  }

  // 'password' (as served), 'sso' or 'required' (the IdP's way, with or without the password offered)
  function show(next) {
    if (next === mode) return;
    var focusWasOnPassword = document.activeElement === password;
    mode = next;
    var sso = next !== 'password';
    passwordField.hidden = sso;
    password.disabled = sso;
    submit.textContent = submit.getAttribute(sso ? 'data-continue' : 'data-sign-in');
    usePassword.hidden = next !== 'sso';
    status.textContent = status.getAttribute('data-' + next);
    if (sso && focusWasOnPassword) submit.focus();
  }

  function apply(domain) {
    if (domain !== domainOf(email.value)) return;
    var answer = answers[domain];
    var sso = answer && answer.sso && (answer.required || !passwordChosen[domain]);
    if (!sso) return show('password');
    if (mode === 'password' && password.value !== '') return;
    show(answer.required ? 'required' : 'sso');
  }

  function check() {
    clearTimeout(timer);
    if (sent.signal.aborted) return;
    var domain = domainOf(email.value);
    if (!domain) return show('password');
    if (answers[domain]) return apply(domain);
    if (asking[domain]) return;
    asking[domain] = true;
    var body = new URLSearchParams();
    body.set('email', email.value.trim());
    fetch(form.getAttribute('data-realm'), { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' }, body: body, signal: sent.signal })
      .then(function (response) {
        return response.ok ? response.json() : undefined;
      })
      .then(function (answer) {
        if (answer) answers[domain] = answer;
        apply(domain);
      })
      .catch(function () {
        // no answer: the page stays as served, and works so
      })
      .then(function () {
        asking[domain] = false;
      });
  }

  function later(ms) {
    clearTimeout(timer);
    timer = setTimeout(check, ms);
  }

  email.addEventListener('input', function () {
    later(TYPING_PAUSE_MS);
  });
  email.addEventListener('change', function () {
    later(LEFT_MS);
  });
  email.addEventListener('blur', function () {
    later(LEFT_MS);
  });
  form.addEventListener('submit', function () {
    clearTimeout(timer);
    sent.abort();
  });
  usePassword.addEventListener('click', function () {
    passwordChosen[domainOf(email.value)] = true;
    show('password');
    password.focus();
  });
  // an address typed while this script was still on its way (the page is usable before it runs): asked about now; one
  // the page was served with (an error page's) waits until it is edited
  if (email.value !== email.defaultValue) check();
});
