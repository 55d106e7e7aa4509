import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, createEvent, fireEvent, render } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { DateInputWidget } from '../../../src/client/widgets/DateInputWidget.js';

/** The widget alone, with the props RJSF gives it; answers the values it reported through onChange. */
function showDateInput() {
  const changes: unknown[] = [];
  const props = { id: 'root_startsOn', value: '', options: {}, onChange: (value: unknown) => changes.push(value), onBlur: () => {}, onFocus: () => {} } as unknown as WidgetProps;
  const screen = render(<DateInputWidget {...props} />);
  return { input: screen.container.querySelector('input') as HTMLInputElement, changes };
}

function paste(input: HTMLInputElement, text: string): Event {
  const event = createEvent.paste(input, { clipboardData: { getData: () => text } });
  fireEvent(input, event);
  return event;
}

describe('DateInputWidget (SPEC §5 start date)', () => {
  afterEach(cleanup);

  it('takes a pasted MM-dd-yyyy date as yyyy-MM-dd', () => {
    const { input, changes } = showDateInput();
    const event = paste(input, '12-01-2026');
    expect(changes).to.deep.equal(['2026-12-01']);
    expect(event.defaultPrevented).to.equal(true);
  });

  it('passes a pasted yyyy-MM-dd date on as it is, and anything else to the form’s date check', () => {
    const { input, changes } = showDateInput();
    paste(input, '2026-12-01');
    paste(input, '1 Dec');
    expect(changes).to.deep.equal(['2026-12-01', '1 Dec']);
  });

  it('ignores an empty paste', () => {
    const { input, changes } = showDateInput();
    expect(paste(input, '  ').defaultPrevented).to.equal(false);
    expect(changes).to.deep.equal([]);
  });
});
