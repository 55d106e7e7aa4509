/**
 * Hostile If-Match values (issue 28) for a versioned route's property test: the record's own tag, other tags, weak
 * tags, `*`, lists of them, and arbitrary text and bytes.
 */
import { expect } from 'chai';
import fc from 'fast-check';

export function ifMatchValues(etag: string): fc.Arbitrary<string> {
  const tag = fc.oneof(fc.constant(etag), fc.string({ maxLength: 12 }).map((text) => `"${text}"`), fc.string({ maxLength: 12 }));
  return fc.oneof(
    fc.constant('*'),
    tag,
    tag.map((text) => `W/${text}`),
    fc.array(fc.oneof(tag, tag.map((text) => `W/${text}`)), { minLength: 1, maxLength: 20 }).map((tags) => tags.join(', ')),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
}

/** Sends one generated value; the answer is the success's status, 400 bad_request or 412 precondition_failed, never else. */
export async function expectConditionalAnswer(ifMatch: string, send: () => Promise<{ statusCode: number; body: string; json(): any }>, success: number): Promise<void> {
  let response;
  try {
    response = await send();
  } catch {
    return; // a header value Node refuses to send (a control character): never reaches the portal
  }
  expect([success, 400, 412], `${JSON.stringify(ifMatch)} → ${response.body}`).to.include(response.statusCode);
  if (response.statusCode === 400) expect(response.json()).to.deep.equal({ error: 'bad_request' });
  if (response.statusCode === 412) expect(response.json().error).to.equal('precondition_failed');
}
