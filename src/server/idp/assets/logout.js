// The portal asked for the sign-out: submit the provider's confirmation form at once (no inline script under the CSP).
document.addEventListener('DOMContentLoaded', function () {
  var form = document.getElementById('logout-form');
  if (form) form.submit();
});
