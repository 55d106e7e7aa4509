/**
 * A boundary's content shown as soon as it has arrived (engine/Reveal.tsx, issue 47): React holds a suspended
 * boundary's retry until 300 ms after the last fallback it showed; a Reveal boundary shows its content without that
 * wait. The plain Suspense beside it shows the wait is React's, so the first test can fail.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, render } from '@testing-library/react';
import { lazy, Suspense, type ReactElement, type ReactNode } from 'react';
import { Reveal, revealing } from '../../../src/client/engine/Reveal.js';

/** A lazily loaded part whose chunk arrives when the test says so, passed through `revealing` as the app's loaders are. */
function heldPart(reveal: boolean) {
  let arrive!: () => void;
  const arrived = new Promise<{ default: () => ReactElement }>((resolve) => (arrive = () => resolve({ default: () => <p>content</p> })));
  return { Part: lazy(() => (reveal ? revealing(arrived) : arrived)), arrive };
}

/** Milliseconds from the chunk's arrival, just after the fallback was shown, to the content on the page. */
async function msToContent(Boundary: (props: { fallback: ReactNode; children: ReactNode }) => ReactElement, reveal: boolean): Promise<number> {
  const { Part, arrive } = heldPart(reveal);
  const view = render(
    <Boundary fallback={<p>waiting</p>}>
      <Part />
    </Boundary>,
  );
  await view.findByText('waiting');
  const start = performance.now();
  arrive();
  await view.findByText('content', {}, { interval: 2 });
  return performance.now() - start;
}

describe('engine/Reveal: a boundary shows its content as it arrives (issue 47)', () => {
  afterEach(cleanup);

  it('shows the content at once, not 300 ms after the fallback', async () => {
    expect(await msToContent(Reveal, true)).to.be.below(150);
  });

  it("a plain Suspense boundary waits out React's 300 ms after its fallback", async () => {
    expect(await msToContent(Suspense as never, false)).to.be.at.least(200);
  });
});
