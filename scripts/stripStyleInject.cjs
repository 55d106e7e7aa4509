/**
 * Webpack loader for react-spreadsheet's bundle: removes the call that injects the package's stylesheet as a <style>
 * element at run time. The Content-Security-Policy (style-src 'self') refuses such an element and the browser reports
 * the refusal as an error on every page that shows the grid; the same rules are in src/client/app/styles.css.
 * Fails the build when the call is not found, so an update of the package that changes it does not go unnoticed.
 */
module.exports = function stripStyleInject(source) {
  const call = /^styleInject\(css_248z\);$/m;
  if (!call.test(source)) {
    this.emitError(new Error('react-spreadsheet: the styleInject(css_248z) call to remove was not found (see scripts/stripStyleInject.cjs)'));
    return source;
  }
  return source.replace(call, '/* styleInject(css_248z) removed: the stylesheet is in src/client/app/styles.css */');
};
