/** The directives of a Content-Security-Policy header, by name ('script-src' → "'self' https://chat.example.com"). */
export function cspDirectives(header: unknown): Map<string, string> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const [name, ...values] = part.split(/\s+/);
        return [name!, values.join(' ')] as [string, string];
      }),
  );
}
