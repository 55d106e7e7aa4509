/**
 * The engine's virtualised table (TableBlock.virtual) on the Users page with 10,000 learners (issue 19, SPEC §9 Users
 * table layout): few rows in the DOM, the rest standing in spacer rows, positions announced, scrolling, the inline
 * form's height, keyboard reach and a row error scrolling the preview to its row.
 */
import { expect } from 'chai';
import { act, cleanup, fireEvent, waitFor, within } from '@testing-library/react';
// loaded here first: the inline form's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/forms/FormScreen.js';
import { jsonResponse } from '../../api/harness.js';
import { screenDataReloaded } from '../../../../src/client/engine/screen/screenDataState.js';
import { afterNextPaint } from '../../../../src/client/engine/paint.js';
import { MANAGER, renderScreen, type ScreenOptions } from './support.js';

const COUNT = 10_000;
const ROW_HEIGHT = 75;
const wire = (index: number) => ({
  id: index + 1,
  last_name: '学習',
  first_name: '太郎',
  kana_last_name: 'がくしゅう',
  kana_first_name: 'たろう',
  email: `learner${index}@example.com`,
  name_id: `N${index}`,
  name_id_type: 'nameId',
});
const LEARNERS = Array.from({ length: COUNT }, (_, index) => wire(index));

/** The table's rendered learner rows (not the spacers standing for the others). */
const learnerRows = (table: HTMLElement) => [...table.querySelectorAll('tbody tr')].filter((row) => !row.classList.contains('table__spacer')) as HTMLElement[];
const spacerHeights = (table: HTMLElement) => [...table.querySelectorAll('tbody tr.table__spacer')].map((row) => Number.parseFloat((row as HTMLElement).style.height));

/** jsdom lays nothing out and does not scroll: the container gets the sizes a browser would give it, and its scrollTo sets scrollTop and fires the scroll event. */
function scrollable(region: HTMLElement): void {
  Object.defineProperty(region, 'clientHeight', { configurable: true, get: () => 435 });
  Object.defineProperty(region, 'scrollHeight', { configurable: true, get: () => COUNT * ROW_HEIGHT + 355 });
  region.scrollTo = ((options: ScrollToOptions) => {
    region.scrollTop = options.top ?? 0;
    fireEvent.scroll(region);
  }) as typeof region.scrollTo;
}

/** A virtualised table follows its container's scrolling once its first rows are painted (VirtualTableView's useAfterFirstPaint). */
const painted = () => act(() => afterNextPaint());

async function renderUsers(routes: ScreenOptions['routes'] = {}) {
  const rendered = await renderScreen('users', { signedIn: MANAGER, routes: { 'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: LEARNERS }), ...routes } });
  await rendered.view.findByText('learner0@example.com');
  await painted();
  const region = rendered.view.getByRole('region', { name: 'Users' });
  scrollable(region);
  return { ...rendered, region, table: within(region).getByRole('table') };
}

describe('the virtualised table (TableBlock.virtual) on the Users page with 10,000 learners', () => {
  afterEach(cleanup);

  it('puts at most 100 of the 10,000 rows in the DOM, spacers standing for the rest at 75 px a row, and announces the count and each position', async () => {
    const { table, region } = await renderUsers();
    const rows = learnerRows(table);
    expect(rows.length).to.be.within(6, 100);
    expect(table.getAttribute('aria-rowcount')).to.equal(String(COUNT + 1)); // the header is row 1
    expect(rows[0]!.getAttribute('aria-rowindex')).to.equal('2');
    expect(rows[0]!.style.height).to.equal('75px');
    expect(spacerHeights(table)).to.deep.equal([(COUNT - rows.length) * ROW_HEIGHT]);
    expect(region.style.maxHeight).to.equal('440px');
    expect(table.style.width).to.equal('960px');
    expect(region.tabIndex).to.equal(0); // the container takes focus: the keyboard scrolls it
  });

  it('renders the rows in view when scrolled, with their positions, and drops the others', async () => {
    const { table, region, view } = await renderUsers();
    region.scrollTop = 5000 * ROW_HEIGHT;
    fireEvent.scroll(region);
    const cell = await view.findByText('learner5000@example.com');
    expect(cell.closest('tr')!.getAttribute('aria-rowindex')).to.equal('5002');
    expect(view.queryByText('learner0@example.com')).to.equal(null);
    const rows = learnerRows(table);
    expect(rows.length).to.be.at.most(100);
    const [before, after] = spacerHeights(table);
    const first = Number(rows[0]!.getAttribute('aria-rowindex')) - 2;
    expect(before).to.equal(first * ROW_HEIGHT);
    expect(before! + rows.length * ROW_HEIGHT + after!).to.equal(COUNT * ROW_HEIGHT);
  });

  it("gives a row with its inline form open 355 px (the row's 75 and the form's 280), and counts the form's row in the positions", async () => {
    const { table, view } = await renderUsers();
    fireEvent.click(view.getByRole('button', { name: 'Edit learner1@example.com' }));
    await view.findByRole('button', { name: 'Update now' });
    const expansion = table.querySelector('tr.table__expansion') as HTMLElement;
    expect((expansion.querySelector('.table__expansion-body') as HTMLElement).style.height).to.equal('280px');
    expect(expansion.previousElementSibling!.getAttribute('aria-rowindex')).to.equal('3');
    expect(expansion.getAttribute('aria-rowindex')).to.equal('4');
    expect(view.getByText('learner2@example.com').closest('tr')!.getAttribute('aria-rowindex')).to.equal('5');
    expect(table.getAttribute('aria-rowcount')).to.equal(String(COUNT + 2));
    const rows = learnerRows(table).filter((row) => !row.classList.contains('table__expansion'));
    const [after] = spacerHeights(table);
    expect(355 + (rows.length - 1) * ROW_HEIGHT + after!).to.equal((COUNT - 1) * ROW_HEIGHT + 355);
  });

  it('reaches every row by keyboard: a row taking focus is scrolled into view, so the rows after it are rendered for Tab', async () => {
    const { table, view } = await renderUsers();
    const last = learnerRows(table).at(-1)!;
    const lastIndex = Number(last.getAttribute('aria-rowindex')) - 2;
    expect(view.queryByText(`learner${lastIndex + 1}@example.com`)).to.equal(null);
    within(last).getByRole('button').focus();
    await view.findByText(`learner${lastIndex + 1}@example.com`);
    view.getByRole('button', { name: `Edit learner${lastIndex + 1}@example.com` });
  });

  it('scrolls the preview to the row of a chosen row error, greyed', async () => {
    const errorRow = 8000; // the CSV's line: the learner at index 7998
    const { view } = await renderUsers({
      'POST /api/v2/organizations/1/users/preview': () => jsonResponse(422, { errors: [{ field: 'name_id', code: 'invalid_format', meta: { row_no: errorRow } }], users: LEARNERS }),
    });
    const input = view.container.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'users.csv', { type: 'text/csv' })] } });
    const message = await view.findByRole('button', { name: `Line ${errorRow} nameId: single-byte alphanumerics only` });
    const preview = view.getByRole('region', { name: 'Users in the uploaded CSV' });
    scrollable(preview);
    await painted();
    expect(within(preview).queryByText('learner7998@example.com')).to.equal(null);
    fireEvent.click(message);
    const cell = await within(preview).findByText('learner7998@example.com');
    const row = cell.closest('tr')!;
    expect(row.getAttribute('aria-rowindex')).to.equal(String(errorRow));
    await waitFor(() => expect(row.classList.contains('table__row--muted')).to.equal(true));
  });
});

describe('the Users table read a page at a time as it scrolls (issue 27: TableBlock.loadsMore, DataDefinition.pages)', () => {
  afterEach(cleanup);
  const PAGE = 1000;

  /** GET users as the server pages it: per_page learners after the id `after`, next_after the page's last id while more follow. */
  function pagedUsers(url: string) {
    const query = new URL(url, 'http://portal').searchParams;
    const after = Number(query.get('after') ?? 0);
    const users = LEARNERS.filter((learner) => learner.id > after).slice(0, Number(query.get('per_page')));
    const last = users.at(-1)!.id;
    return jsonResponse(200, { users, next_after: last < COUNT ? last : null });
  }
  const afters = (calls: (method: string, path: string) => Array<{ args: [string, ...unknown[]] }>) =>
    calls('GET', '/api/v2/organizations/1/users').map((call) => new URL(call.args[0], 'http://portal').searchParams.get('after'));
  /** Scrolls the table to the last loaded row and waits for the next page's first learner to be loaded. */
  async function scrollToLoaded(region: HTMLElement, view: Awaited<ReturnType<typeof renderUsers>>['view'], loaded: number) {
    region.scrollTop = (loaded - 5) * ROW_HEIGHT;
    fireEvent.scroll(region);
    region.scrollTop = loaded * ROW_HEIGHT;
    fireEvent.scroll(region);
    await view.findByText(`learner${loaded}@example.com`);
  }

  it('asks for 1,000 learners first, then the page after the last one shown as the view nears the end, until the last; the count is unknown (-1) meanwhile', async () => {
    const { table, region, view, calls } = await renderUsers({ 'GET /api/v2/organizations/1/users': pagedUsers });
    expect(new URL(calls('GET', '/api/v2/organizations/1/users')[0]!.args[0], 'http://portal').searchParams.get('per_page')).to.equal('1000');
    expect(table.getAttribute('aria-rowcount')).to.equal('-1');
    expect(spacerHeights(table).reduce((sum, height) => sum + height, 0) + learnerRows(table).length * ROW_HEIGHT).to.equal(PAGE * ROW_HEIGHT);
    for (let loaded = PAGE; loaded < COUNT; loaded += PAGE) await scrollToLoaded(region, view, loaded);
    await waitFor(() => expect(table.getAttribute('aria-rowcount')).to.equal(String(COUNT + 1)));
    expect(afters(calls)).to.deep.equal([null, ...Array.from({ length: COUNT / PAGE - 1 }, (_, index) => String((index + 1) * PAGE))]);
  });

  it('reads as many learners again on a reload (after an edit or a bulk update) as were shown, so the view stays where it was', async () => {
    const { region, table, view, calls, store } = await renderUsers({ 'GET /api/v2/organizations/1/users': pagedUsers });
    await scrollToLoaded(region, view, PAGE);
    // back at the top: the table itself asks for nothing more, what follows is the reload's own
    region.scrollTop = 0;
    fireEvent.scroll(region);
    await view.findByText('learner0@example.com');
    store.dispatch(screenDataReloaded({ screenId: 'users' }));
    await waitFor(() => expect(afters(calls)).to.deep.equal([null, '1000', null, '1000']));
    const height = () => spacerHeights(table).reduce((sum, spacer) => sum + spacer, 0) + learnerRows(table).length * ROW_HEIGHT;
    await waitFor(() => expect(height()).to.equal(2 * PAGE * ROW_HEIGHT));
  });
});
