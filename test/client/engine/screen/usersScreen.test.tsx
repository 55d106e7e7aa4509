/**
 * The Users page (screens/users.json, SPEC 2.15) through the engine: upload → preview → bulk update, row errors,
 * format errors, the CSV download saved with its byte-order mark and file name, and the inline nameId edit.
 */
import { expect } from 'chai';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import sinon from 'sinon';
// loaded here first: the inline form's lazy import then gets this module, in the test's module graph
import '../../../../src/client/engine/forms/FormScreen.js';
import { formChanged, selectForm, type FormsRootState } from '../../../../src/client/engine/forms/formState.js';
import { savedFile } from '../../../../src/client/engine/screen/calls.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { bodyOf, hangs, jsonResponse, type UploadInit } from '../../api/harness.js';
import { MANAGER, renderScreen } from './support.js';

const USERS = [
  { id: 11, lastName: '青木', firstName: '健太', kanaLastName: 'あおき', kanaFirstName: 'けんた', email: 'aoki@example.com', nameId: 'EMP0001', nameIdType: 'nameId' },
  { id: 12, lastName: '伊藤', firstName: '直美', kanaLastName: 'いとう', kanaFirstName: 'なおみ', email: 'ito@example.com', nameId: '', nameIdType: 'email' },
];
const wire = (user: (typeof USERS)[number]) => ({
  id: user.id,
  last_name: user.lastName,
  first_name: user.firstName,
  kana_last_name: user.kanaLastName,
  kana_first_name: user.kanaFirstName,
  email: user.email,
  name_id: user.nameId,
  name_id_type: user.nameIdType,
  etag: `"${user.id}01"`,
});
const PREVIEWED = [{ ...wire(USERS[0]!), name_id: 'NEW0001' }, wire(USERS[1]!)];

function chooseFile(container: HTMLElement, content = 'id,lastName\r\n') {
  const input = container.querySelector('input[type="file"]') as HTMLInputElement;
  const file = new File([content], 'users.csv', { type: 'text/csv' });
  fireEvent.change(input, { target: { files: [file] } });
  return file;
}

describe('screens/users.json (SPEC 2.15 Users)', () => {
  afterEach(cleanup);

  it('uploads the chosen file as multipart field csv, shows the preview, and Bulk update sends the previewed users, then lists them again', async () => {
    let loads = 0;
    const { view, calls } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: (loads += 1) === 1 ? USERS.map(wire) : PREVIEWED }),
        'POST /api/v2/organizations/1/users/preview': () => jsonResponse(200, { users: PREVIEWED }),
        'POST /api/v2/organizations/1/users/bulk_update': () => jsonResponse(200, { users: PREVIEWED }),
      },
    });
    await view.findByText('EMP0001');
    view.getByRole('button', { name: 'CSV download' });
    expect(view.queryByRole('button', { name: 'Bulk update' })).to.equal(null);

    const file = chooseFile(view.container);
    await view.findByText('NEW0001');
    const sent = calls('POST', '/api/v2/organizations/1/users/preview')[0]!.args[1]!.body as FormData;
    expect(sent).to.be.instanceOf(FormData);
    expect((sent.get('csv') as File).name).to.equal(file.name);
    view.getByRole('separator', { name: 'preview' });
    expect(view.queryByRole('button', { name: 'CSV download' })).to.equal(null);
    expect(view.queryByRole('button', { name: 'Edit aoki@example.com' })).to.equal(null); // no inline form in preview
    view.getByRole('button', { name: 'Cancel preview' });

    fireEvent.click(view.getByRole('button', { name: 'Bulk update' }));
    await waitFor(() => expect(loads).to.equal(2));
    expect(bodyOf(calls('POST', '/api/v2/organizations/1/users/bulk_update')[0]!.args[1])).to.deep.equal({ users: PREVIEWED });
    await waitFor(() => expect(view.queryByRole('separator', { name: 'preview' })).to.equal(null));
    view.getByRole('button', { name: 'CSV download' });
  });

  it("hides 'Cancel preview' and 'Bulk update' while another upload runs", async () => {
    let previews = 0;
    const { view } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
        'POST /api/v2/organizations/1/users/preview': (url, init) => ((previews += 1) === 1 ? jsonResponse(200, { users: PREVIEWED }) : hangs(url, init)),
      },
    });
    await view.findByText('EMP0001');
    chooseFile(view.container);
    await view.findByRole('button', { name: 'Bulk update' });
    chooseFile(view.container);
    await waitFor(() => expect(view.queryByRole('button', { name: 'Bulk update' })).to.equal(null));
    expect(view.queryByRole('button', { name: 'Cancel preview' })).to.equal(null);
  });

  it('shows the upload’s percentage while the file is sent, then checking; Cancel aborts it and leaves the list as it was (issue 19)', async () => {
    let upload: UploadInit | undefined;
    const { view } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
        'POST /api/v2/organizations/1/users/preview': (url, init) => {
          upload = init as UploadInit;
          return hangs(url, init);
        },
      },
    });
    await view.findByText('EMP0001');
    chooseFile(view.container);
    await waitFor(() => expect(upload).to.not.equal(undefined));
    upload!.onUploadProgress(42, 100);
    expect((await view.findByRole('status')).textContent).to.equal('Sending the file… 42%');
    expect((view.getByRole('button', { name: 'CSV upload' }) as HTMLButtonElement).disabled, 'no second upload meanwhile').to.equal(true);
    upload!.onUploadProgress(100, 100);
    await view.findByText('Checking the file…');

    fireEvent.click(view.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(upload!.signal!.aborted, 'the request aborted').to.equal(true));
    await waitFor(() => expect(view.queryByRole('status')).to.equal(null));
    expect((view.getByRole('button', { name: 'CSV upload' }) as HTMLButtonElement).disabled).to.equal(false);
    expect(view.queryByRole('separator', { name: 'preview' })).to.equal(null);
    view.getByText('EMP0001');
    view.getByRole('button', { name: 'CSV download' });
  });

  it('lists row errors (422) under a heading, greys their rows, and offers no Bulk update', async () => {
    const { view } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
        'POST /api/v2/organizations/1/users/preview': () =>
          jsonResponse(422, {
            errors: [
              { field: 'name_id', code: 'invalid_format', meta: { row_no: 3 } },
              { field: 'email', code: 'cannotBeChanged', meta: { row_no: 3 } },
            ],
            users: [wire(USERS[0]!), { ...wire(USERS[1]!), name_id: 'x-1', email: 'other@example.com' }],
          }),
      },
    });
    await view.findByText('EMP0001');
    chooseFile(view.container);
    await view.findByRole('heading', { name: 'Errors in the CSV' });
    view.getByText('Line 3 nameId: single-byte alphanumerics only');
    view.getByText('Line 3 email: cannot be changed.');
    const muted = (await view.findByText('x-1')).closest('tr')!;
    expect(muted.className).to.equal('table__row--muted');
    expect(view.getByText('青木').closest('tr')!.className).to.equal('');
    expect(view.queryByRole('button', { name: 'Bulk update' })).to.equal(null);
    fireEvent.click(view.getAllByRole('button', { name: 'Cancel preview' })[0]!);
    await waitFor(() => expect(view.queryByRole('heading', { name: 'Errors in the CSV' })).to.equal(null));
    view.getByRole('button', { name: 'CSV download' });
  });

  it('sends the previewed rows with their versions; rows changed since (412) are listed as errors with who changed them last, and Bulk update is offered no more (issue 28)', async () => {
    const { view, calls, store } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
        'POST /api/v2/organizations/1/users/preview': () => jsonResponse(200, { users: PREVIEWED }),
        'POST /api/v2/organizations/1/users/bulk_update': () =>
          jsonResponse(412, {
            error: 'precondition_failed',
            changed_by: { name: '美咲 高橋', email: 'manager2@example.com' },
            changed_at: '2026-11-27T01:02:00.000Z',
            rows: [{ row_no: 3, changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' }],
          }),
      },
    });
    await view.findByText('EMP0001');
    chooseFile(view.container);
    fireEvent.click(await view.findByRole('button', { name: 'Bulk update' }));
    await view.findByText('Line 3 id: This learner was changed by another administrator after the preview. Cancel the preview and upload the file again.');
    const sent = bodyOf(calls('POST', '/api/v2/organizations/1/users/bulk_update')[0]!.args[1]) as { users: Array<{ etag: string }> };
    expect(sent.users.map((user) => user.etag)).to.deep.equal(PREVIEWED.map((user) => user.etag));
    expect(selectFlashMessages(store.getState() as never).map((message) => message.messageKey)).to.deep.equal(['errors.changedMeanwhile']);
    expect(view.queryByRole('button', { name: 'Bulk update' })).to.equal(null);
  });

  it('normalises the row errors (SPEC §5): one per row and field, incomplete items dropped, sorted by row', async () => {
    const { view } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
        'POST /api/v2/organizations/1/users/preview': () =>
          jsonResponse(422, {
            errors: [
              { field: 'email', code: 'cannotBeChanged', meta: { row_no: 3 } },
              { field: 'email', code: 'blank', meta: { row_no: 3 } },
              { field: 'name_id', code: 'invalid_format', meta: { row_no: 2 } },
              { field: 'name_id', meta: { row_no: 2 } },
              { code: 'blank', meta: { row_no: 2 } },
            ],
            users: USERS.map(wire),
          }),
      },
    });
    await view.findByText('EMP0001');
    chooseFile(view.container);
    await view.findByRole('heading', { name: 'Errors in the CSV' });
    const messages = within(view.getByRole('table', { name: 'Errors in the CSV' })).getAllByRole('button').map((button) => button.textContent);
    expect(messages).to.deep.equal(['Line 2 nameId: single-byte alphanumerics only', 'Line 3 email: cannot be changed.']);
  });

  for (const [call, act] of [
    ['GET /api/v2/organizations/1/users', async () => {}],
    ['GET /api/v2/organizations/1/users/csv', async (view: Awaited<ReturnType<typeof renderScreen>>['view']) => fireEvent.click(await view.findByRole('button', { name: 'CSV download' }))],
    ['POST /api/v2/organizations/1/users/preview', async (view: Awaited<ReturnType<typeof renderScreen>>['view']) => chooseFile((await view.findByText('EMP0001')) && view.container)],
  ] as const) {
    it(`clears local storage and sends the admin to sign in when ${call} answers 401 (SPEC §8 'User calls returning 401')`, async () => {
      localStorage.setItem('kept', 'value');
      const unauthorised = () => jsonResponse(401, { error: 'unauthorized' });
      const { view, navigate } = await renderScreen('users', {
        signedIn: MANAGER,
        routes: { 'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }), [call]: unauthorised },
      });
      await act(view);
      // back here after signing in (the harness's current path)
      await waitFor(() => expect(navigate.args.some(([to]) => /^\/signin\?returnTo=/.test(String(to)))).to.equal(true));
      expect(localStorage.getItem('kept')).to.equal(null);
    });
  }

  it('replaces the table with a format error panel (400 by code; 413 invalid CSV format) that offers the upload again', async () => {
    let status = 400;
    const { view } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
        'POST /api/v2/organizations/1/users/preview': () => (status === 400 ? jsonResponse(400, { error: 'invalidHeader' }) : new Response('too large', { status: 413 })),
      },
    });
    await view.findByText('EMP0001');
    chooseFile(view.container);
    const panel = await view.findByRole('region', { name: 'The CSV cannot be read' });
    within(panel).getByText('The header row has been changed.');
    expect(view.queryByText('EMP0001')).to.equal(null);
    expect(view.queryByRole('button', { name: 'Bulk update' })).to.equal(null);
    within(panel).getByRole('button', { name: 'CSV upload' });

    status = 413;
    chooseFile(panel);
    await within(panel).findByText('invalid CSV format');
  });

  it('saves the downloaded CSV with the UTF-8 byte-order mark as users_list_{gloplaId}_{yyyyMMdd}.csv', async () => {
    const createObjectURL = sinon.stub().returns('blob:users');
    Object.assign(URL, { createObjectURL, revokeObjectURL: sinon.stub() });
    // the prototype of the document's own anchors (another test file may have registered another window's globals)
    const click = sinon.stub(Object.getPrototypeOf(document.createElement('a')) as HTMLAnchorElement, 'click');
    try {
      const { view } = await renderScreen('users', {
        signedIn: MANAGER,
        routes: {
          'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }),
          'GET /api/v2/organizations/1/users/csv': () => new Response('id,lastName\r\n11,青木\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } }),
        },
      });
      fireEvent.click(await view.findByRole('button', { name: 'CSV download' }));
      await waitFor(() => expect(click.callCount).to.equal(1));
      const link = click.firstCall.thisValue as HTMLAnchorElement;
      expect(link.download).to.match(/^users_list_G0000001_\d{8}\.csv$/);
      const blob = createObjectURL.firstCall.args[0] as Blob;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      expect([...bytes.slice(0, 3)]).to.deep.equal([239, 187, 191]);
      expect(new TextDecoder().decode(bytes.slice(3))).to.equal('id,lastName\r\n11,青木\r\n');
    } finally {
      click.restore();
    }
  });

  it('names the saved file by the date of the day (yyyyMMdd)', () => {
    const { name } = savedFile({ fileName: 'users.csvFileName', values: { gloplaId: '$organization.gloplaId' } }, { organization: { gloplaId: 'G0000001' }, body: 'x' }, new Date(2026, 0, 5, 12));
    expect(name).to.equal('users_list_G0000001_20260105.csv');
  });

  it("edits one learner inline: only nameId is enabled; 'Update now' sends the row with the new nameId and lists again", async () => {
    let loads = 0;
    const { view, calls, store } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: (loads += 1) === 1 ? USERS.map(wire) : PREVIEWED }),
        'PATCH /api/v2/organizations/1/users/11': () => jsonResponse(200, { user: PREVIEWED[0] }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit aoki@example.com' }));
    const nameId = (await view.findByLabelText(/^nameId/)) as HTMLInputElement;
    expect(nameId.value).to.equal('EMP0001');
    expect(nameId.disabled).to.equal(false);
    expect((view.getByLabelText(/^E-mail/) as HTMLInputElement).disabled).to.equal(true);
    // the edit, as the form's onChange reports it: RJSF's change event does not reach the lazily loaded inline form
    // under jsdom here (typing into RJSF fields is covered by the form engine's own tests)
    store.dispatch(formChanged({ formId: 'users', data: { ...selectForm(store.getState() as unknown as FormsRootState, 'users').data, lastName: '青木', firstName: '健太', kanaLastName: 'あおき', kanaFirstName: 'けんた', email: 'aoki@example.com', nameId: 'NEW0001' } }));
    await waitFor(() => expect((view.getByLabelText(/^nameId/) as HTMLInputElement).value).to.equal('NEW0001'));
    fireEvent.click(view.getByRole('button', { name: 'Update now' }));
    await waitFor(() => expect(loads).to.equal(2));
    expect(bodyOf(calls('PATCH', '/api/v2/organizations/1/users/11')[0]!.args[1])).to.deep.equal({
      last_name: '青木',
      first_name: '健太',
      kana_last_name: 'あおき',
      kana_first_name: 'けんた',
      email: 'aoki@example.com',
      name_id: 'NEW0001',
    });
    await waitFor(() => expect(view.queryByRole('button', { name: 'Update now' })).to.equal(null));
  });

  it("edits on the version the list showed (If-Match); changed meanwhile (412), keeps the form with who and when, shows the latest nameId beside mine, and 'Save mine anyway' writes on it (issue 28)", async () => {
    let loads = 0;
    const latest = { ...wire({ ...USERS[0]!, nameId: 'EMP9999' }), etag: '"1102"' };
    const { view, calls, store } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: {
        'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire), loads: (loads += 1) }),
        'GET /api/v2/organizations/1/users/11': () => jsonResponse(200, { user: latest }),
        'PATCH /api/v2/organizations/1/users/11': (_url, init) =>
          (init.headers as Record<string, string>)['if-match'] === '"1102"'
            ? jsonResponse(200, { user: { ...latest, name_id: 'EMP0002', etag: '"1103"' } })
            : jsonResponse(412, { error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' }, changed_at: '2026-11-27T01:02:00.000Z' }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit aoki@example.com' }));
    await view.findByLabelText(/^nameId/);
    // the edit as the form's onChange reports it (see the inline edit's test above)
    store.dispatch(formChanged({ formId: 'users', data: { ...selectForm(store.getState() as unknown as FormsRootState, 'users').data, lastName: '青木', firstName: '健太', kanaLastName: 'あおき', kanaFirstName: 'けんた', email: 'aoki@example.com', nameId: 'EMP0002' } }));
    await waitFor(() => expect((view.getByLabelText(/^nameId/) as HTMLInputElement).value).to.equal('EMP0002'));
    fireEvent.click(view.getByRole('button', { name: 'Update now' }));
    await view.findByText(/^This was changed by 美咲 高橋 at .+ while you were editing\.$/);
    expect((view.getByLabelText(/^nameId/) as HTMLInputElement).value, 'the draft stays').to.equal('EMP0002');
    fireEvent.click(view.getByRole('button', { name: 'Show the latest' }));
    const compared = await view.findByRole('table', { name: 'Your entry and the saved version' });
    expect(within(compared).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent))).to.deep.equal([['nameId', 'EMP0002', 'EMP9999']]);

    fireEvent.click(view.getByRole('button', { name: 'Save mine anyway' }));
    await waitFor(() => expect(view.queryByRole('button', { name: 'Update now' })).to.equal(null));
    expect(calls('PATCH', '/api/v2/organizations/1/users/11').map((call) => (call.args[1]!.headers as Record<string, string>)['if-match'])).to.deep.equal(['"1101"', '"1102"']);
    expect(selectFlashMessages(store.getState() as never).map((message) => message.messageKey)).to.deep.equal(['users.updated']);
    await waitFor(() => expect(loads).to.equal(2));
  });

  it('closes the inline form with Cancel, without a call', async () => {
    const { view, calls } = await renderScreen('users', {
      signedIn: MANAGER,
      routes: { 'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: USERS.map(wire) }) },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Edit ito@example.com' }));
    fireEvent.click(await view.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(view.queryByRole('button', { name: 'Update now' })).to.equal(null));
    expect(calls('PATCH', '/api/v2/organizations/1/users/12')).to.have.length(0);
  });
});
