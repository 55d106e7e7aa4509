import 'global-jsdom/register';
import { expect } from 'chai';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import i18next, { type i18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import Form from '@rjsf/core';
import validator from '@rjsf/validator-ajv8';
import type { ErrorSchema, RJSFSchema, UiSchema } from '@rjsf/utils';
import { englishI18n } from '../support/i18n.js';
import { loadLocales } from '../../../src/configuration/load.js';
import { fields, widgets } from '../../../src/client/widgets/index.js';
import { templates } from '../../../src/client/engine/forms/templates.js';
import { serverErrorsToErrorSchema } from '../../../src/client/engine/forms/validationMessages.js';
import { setLearnerGridLoader } from '../../../src/client/widgets/LearnerGridField.js';
import * as gridModule from '../../../src/client/widgets/learnerGrid/LearnerGrid.js';

/** The learner rows of the subscription form (SPEC §3, §5), as far as the grid is concerned. */
const schema: RJSFSchema = {
  type: 'object',
  properties: {
    users: {
      type: 'array',
      title: 'learnerGrid.label',
      items: {
        type: 'object',
        required: ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'],
        properties: {
          id: { type: 'integer' },
          firstName: { type: 'string', minLength: 1 },
          lastName: { type: 'string', minLength: 1 },
          kanaFirstName: { type: 'string', minLength: 1 },
          kanaLastName: { type: 'string', minLength: 1 },
          email: { type: 'string', format: 'email' },
        },
      },
    },
  },
};

/** The options the wizard passes (see the report / the field's doc comment). */
const OPTIONS = {
  label: 'learnerGrid.label',
  columns: [
    { field: 'firstName', label: 'learnerGrid.columns.firstName' },
    { field: 'lastName', label: 'learnerGrid.columns.lastName' },
    { field: 'kanaFirstName', label: 'learnerGrid.columns.kanaFirstName' },
    { field: 'kanaLastName', label: 'learnerGrid.columns.kanaLastName' },
    { field: 'email', label: 'learnerGrid.columns.email' },
  ],
  columnOrder: { ja: ['lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email'] },
  heading: { by: 'single', keys: { single: 'learnerGrid.heading.single', multi: 'learnerGrid.heading.multi' } },
  helpLink: 'links.learnerGridHelp',
  limitHelpLink: 'links.learnerLimitHelp',
  uniqueFields: ['email'],
};

type Row = Record<string, unknown>;

interface HarnessProps {
  options?: Record<string, unknown>;
  users?: Row[];
  extraErrors?: ErrorSchema;
  liveValidate?: boolean;
  values: Row[][];
}

function Harness({ options = OPTIONS, users, extraErrors, liveValidate, values }: HarnessProps) {
  const [data, setData] = useState<Record<string, unknown>>(users ? { users } : {});
  const uiSchema: UiSchema = { users: { 'ui:field': 'LearnerGrid', 'ui:options': options } };
  return (
    <Form
      schema={schema}
      uiSchema={uiSchema}
      validator={validator}
      formData={data}
      fields={fields}
      widgets={widgets}
      templates={templates}
      extraErrors={extraErrors}
      liveValidate={liveValidate ? 'onChange' : undefined}
      showErrorList={false}
      onChange={({ formData }) => {
        setData(formData);
        values.push(formData.users);
      }}
    />
  );
}

async function japaneseI18n(): Promise<i18n> {
  const instance = i18next.createInstance();
  const locales = loadLocales();
  await instance.use(initReactI18next).init({ lng: 'ja', fallbackLng: 'ja', resources: { en: { translation: locales.en }, ja: { translation: locales.ja } }, interpolation: { escapeValue: false } });
  return instance;
}

const JA_ORDER = ['姓', '名', '姓（ふりがな）', '名（ふりがな）', 'メールアドレス'];
const EN_ORDER = ['First name', 'Last name', 'Kana first name', 'Kana last name', 'E-mail'];

describe('LearnerGrid field (SPEC 2.11 step 5: the learner grid on react-spreadsheet)', () => {
  let en: i18n;
  let ja: i18n;
  before(async () => {
    setLearnerGridLoader(() => Promise.resolve(gridModule));
    en = await englishI18n();
    ja = await japaneseI18n();
  });
  afterEach(cleanup);

  async function show(props: Omit<HarnessProps, 'values'> & { language?: i18n } = {}) {
    const values: Row[][] = [];
    const view = render(
      <I18nextProvider i18n={props.language ?? en}>
        <Harness {...props} values={values} />
      </I18nextProvider>,
    );
    const table = await view.findByRole('table', {}, { timeout: 10000 });
    const rerender = (next: Omit<HarnessProps, 'values'>) =>
      view.rerender(
        <I18nextProvider i18n={props.language ?? en}>
          <Harness {...props} {...next} values={values} />
        </I18nextProvider>,
      );
    return { view, table, values, rerender, latest: () => values.at(-1) };
  }

  /** Data rows of the grid: each row's cells' texts (the header row and the row number column left out). */
  function gridTexts(table: HTMLElement): string[][] {
    return [...table.querySelectorAll('tbody tr')].slice(1).map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''));
  }

  function cellAt(table: HTMLElement, row: number, column: number): HTMLTableCellElement {
    return (table.querySelectorAll('tbody tr')[row + 1] as HTMLTableRowElement).querySelectorAll('td')[column] as HTMLTableCellElement;
  }

  /** Types into a cell as a person does: a click makes it active (a click on the active cell edits it), Enter opens its editor. */
  function typeInto(view: ReturnType<typeof render>, table: HTMLElement, row: number, column: number, text: string) {
    fireEvent.mouseDown(cellAt(table, row, column));
    if (!view.container.querySelector('.Spreadsheet__data-editor input')) fireEvent.keyDown(view.container.querySelector('.Spreadsheet')!, { key: 'Enter' });
    const editor = view.container.querySelector('.Spreadsheet__data-editor input') as HTMLInputElement;
    fireEvent.change(editor, { target: { value: text } });
    fireEvent.keyDown(editor, { key: 'Enter' });
  }

  /** A paste as the browser sends it: the clipboard's tab-separated text, onto the active cell. */
  function paste(view: ReturnType<typeof render>, table: HTMLElement, row: number, column: number, text: string) {
    fireEvent.mouseDown(cellAt(table, row, column));
    expect(view.container.querySelector('.Spreadsheet')!.matches(':focus-within')).to.equal(true);
    const event = new window.Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'clipboardData', { value: { getData: (type: string) => (type === 'text/plain' ? text : '') } });
    act(() => {
      document.dispatchEvent(event);
    });
  }

  it('starts padded to 10 empty rows, named by its heading, with the row number column', async () => {
    const { table, view } = await show();
    expect(gridTexts(table)).to.have.length(10);
    expect(gridTexts(table).flat().every((text) => text === '')).to.equal(true);
    expect(within(table).getAllByRole('rowheader').map((header) => header.textContent)).to.deep.equal(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
    // no maximum given: the heading is the grid's label, and it names the table
    expect(view.getByRole('table', { name: 'Users' })).to.equal(table);
    expect(view.getByRole('link', { name: /How to use the sheet/ }).getAttribute('href')).to.equal('https://www.example.com/faq/learner-sheet/');
  });

  it('the rows option changes the padding, and existing learners are shown in the first rows', async () => {
    const { table } = await show({ options: { ...OPTIONS, rows: 3 }, users: [{ id: 7, firstName: 'Taro', lastName: 'Yamada', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'taro@example.com' }] });
    expect(gridTexts(table)).to.deep.equal([
      ['Taro', 'Yamada', 'たろう', 'やまだ', 'taro@example.com'],
      ['', '', '', '', ''],
      ['', '', '', '', ''],
    ]);
  });

  it("the '+' button (named 'Add row') adds an empty row and leaves the value alone", async () => {
    const { table, view, values } = await show();
    fireEvent.click(view.getByRole('button', { name: 'Add row' }));
    expect(gridTexts(table)).to.have.length(11);
    expect(values).to.have.length(0);
  });

  it('columns follow the language: first name first in English, last name first in Japanese', async () => {
    const english = await show();
    expect(within(english.table).getAllByRole('columnheader', { name: /./ }).filter((header) => header.getAttribute('scope') === 'col').map((header) => header.textContent)).to.deep.equal(EN_ORDER);
    cleanup();
    const japanese = await show({ language: ja, users: [{ firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 't@example.com' }] });
    expect(within(japanese.table).getAllByRole('columnheader').filter((header) => header.getAttribute('scope') === 'col').map((header) => header.textContent)).to.deep.equal(JA_ORDER);
    expect(gridTexts(japanese.table)[0]).to.deep.equal(['山田', '太郎', 'やまだ', 'たろう', 't@example.com']);
    // editing the first column in Japanese edits the last name
    typeInto(japanese.view, japanese.table, 1, 0, '佐藤');
    await waitFor(() => expect(japanese.latest()?.[1]).to.deep.include({ lastName: '佐藤', firstName: '' }));
  });

  it('editing a cell updates the form value; rows with every field blank are dropped, values trimmed', async () => {
    const { table, view, latest } = await show();
    // the cell's editor is named by its row and column
    fireEvent.mouseDown(cellAt(table, 2, 4));
    fireEvent.keyDown(view.container.querySelector('.Spreadsheet')!, { key: 'Enter' });
    expect(view.getByRole('textbox', { name: 'Row 3, E-mail' })).to.exist;
    fireEvent.keyDown(view.getByRole('textbox', { name: 'Row 3, E-mail' }), { key: 'Escape' });
    typeInto(view, table, 2, 4, '  hanako@example.com ');
    await waitFor(() => expect(latest()).to.deep.equal([{ firstName: '', lastName: '', kanaFirstName: '', kanaLastName: '', email: 'hanako@example.com' }]));
    expect(gridTexts(table)[2]![4]).to.equal('  hanako@example.com ');
    typeInto(view, table, 2, 4, '   ');
    await waitFor(() => expect(latest()).to.deep.equal([]));
  });

  it("existing rows keep their id (edit wizard); new rows have none; the local key is never in the value", async () => {
    const users = [
      { id: 11, firstName: 'Taro', lastName: 'Yamada', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'taro@example.com' },
      { id: 12, firstName: 'Jiro', lastName: 'Yamada', kanaFirstName: 'じろう', kanaLastName: 'やまだ', email: 'jiro@example.com' },
    ];
    const { table, view, latest } = await show({ users });
    typeInto(view, table, 1, 0, 'Jirou');
    typeInto(view, table, 3, 4, 'new@example.com');
    await waitFor(() => expect(latest()).to.have.length(3));
    expect(latest()![0]).to.deep.equal(users[0]);
    expect(latest()![1]).to.deep.equal({ ...users[1], firstName: 'Jirou' });
    expect(latest()![2]).to.deep.equal({ firstName: '', lastName: '', kanaFirstName: '', kanaLastName: '', email: 'new@example.com' });
    expect(latest()!.every((row) => !('key' in row))).to.equal(true);
    // emptying the first learner's row removes that learner; the second keeps its id
    for (let column = 0; column < 5; column += 1) typeInto(view, table, 0, column, '');
    await waitFor(() => expect(latest()).to.have.length(2));
    expect(latest()![0]).to.deep.include({ id: 12, firstName: 'Jirou' });
  });

  describe('row locks (issue 17: a class application past its deadlines), a generic option of the grid', () => {
    const KEPT = [
      { id: 11, firstName: 'Taro', lastName: 'Yamada', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'taro@example.com' },
      { id: 12, firstName: 'Jiro', lastName: 'Yamada', kanaFirstName: 'じろう', kanaLastName: 'やまだ', email: 'jiro@example.com' },
    ];
    const KEPT_LOCK = 'Registered learners cannot be changed or removed: the reduction deadline has passed.';
    const ADDED_LOCK = 'No learners can be added: the enlargement deadline has passed.';
    const locks = {
      kept: { lockKept: 'learnerGrid.locks.reductionDeadline', lockKeptRefused: 'subscriptions.errors.users.email.reductionDeadline' },
      added: { lockAdded: 'learnerGrid.locks.enlargementDeadline', lockAddedRefused: 'subscriptions.errors.users.email.enlargementDeadline' },
    };

    it('lockKept: the rows that came with an id say why they are locked; an edit of one is undone and said; new rows stay editable', async () => {
      const { table, view, latest } = await show({ options: { ...OPTIONS, ...locks.kept }, users: KEPT });
      view.getByText(KEPT_LOCK); // the note above the grid, before any edit
      expect(within(table).getAllByRole('img', { name: KEPT_LOCK })).to.have.length(2);
      // a paste over a locked row is undone and said
      paste(view, table, 0, 0, 'Changed');
      await view.findByText('taro@example.com cannot be deleted.');
      expect(gridTexts(table)[0]).to.deep.equal(['Taro', 'Yamada', 'たろう', 'やまだ', 'taro@example.com']);
      // a locked cell opens no editor
      fireEvent.keyDown(view.container.querySelector('.Spreadsheet')!, { key: 'Enter' });
      expect(view.container.querySelector('.Spreadsheet__data-editor input')).to.equal(null);
      fireEvent.keyDown(view.container.querySelector('.Spreadsheet')!, { key: 'Escape' });
      typeInto(view, table, 2, 4, 'new@example.com');
      await waitFor(() => expect(latest()).to.have.length(3));
      expect(latest()!.slice(0, 2)).to.deep.equal(KEPT);
      expect(view.queryByText('taro@example.com cannot be deleted.'), 'the refusal goes with the next accepted edit').to.equal(null);
      expect((view.getByRole('button', { name: 'Add row' }) as HTMLButtonElement).disabled).to.equal(false);
    });

    it('lockAdded: no row can be added (Add row disabled, no empty rows offered); a paste below the learners is undone and said by line', async () => {
      const { table, view, latest } = await show({ options: { ...OPTIONS, ...locks.added }, users: KEPT });
      view.getByText(ADDED_LOCK);
      expect((view.getByRole('button', { name: 'Add row' }) as HTMLButtonElement).disabled).to.equal(true);
      expect(gridTexts(table)).to.have.length(2);
      paste(view, table, 1, 0, 'Jirou\tYamada\tじろう\tやまだ\tjiro@example.com\nHana\tMori\tはな\tもり\thana@example.com');
      await view.findByText('No. 3: hana@example.com cannot be added.');
      // the kept rows may still change (no reduction lock)
      await waitFor(() => expect(latest()?.[1]).to.deep.include({ id: 12, firstName: 'Jirou' }));
      expect(gridTexts(table)).to.have.length(2);
      expect(latest()!.map((row) => row.email)).to.deep.equal(['taro@example.com', 'jiro@example.com']);
    });
  });

  it('a keyboard user reaches a cell with Tab and edits it with Enter; Tab is left to the browser, so it leaves the grid', async () => {
    const { table, view, latest } = await show();
    const cell = cellAt(table, 0, 1);
    act(() => cell.focus());
    await waitFor(() => expect(view.container.querySelector('.Spreadsheet__active-cell')).to.not.equal(null));
    fireEvent.keyDown(cell, { key: 'Enter' });
    const editor = view.getByRole('textbox', { name: 'Row 1, Last name' });
    fireEvent.change(editor, { target: { value: 'Yamada' } });
    fireEvent.keyDown(editor, { key: 'Enter' });
    await waitFor(() => expect(latest()?.[0]).to.deep.include({ lastName: 'Yamada' }));
    // not prevented: the browser moves the focus (to the next cell, and after the last one out of the grid)
    expect(fireEvent.keyDown(cellAt(table, 9, 4), { key: 'Tab' })).to.equal(true);
  });

  it('cells with schema errors are highlighted and listed under the grid by row number and column', async () => {
    const { table, view } = await show({ liveValidate: true });
    typeInto(view, table, 1, 4, 'not-an-address');
    await waitFor(() => expect(cellAt(table, 1, 4).classList.contains('learner-grid__cell--error')).to.equal(true));
    expect(cellAt(table, 1, 0).classList.contains('learner-grid__cell--error')).to.equal(true); // first name required
    expect(cellAt(table, 0, 0).classList.contains('learner-grid__cell--error')).to.equal(false);
    const list = view.container.querySelector('.learner-grid__errors') as HTMLElement;
    const items = within(list).getAllByRole('listitem').map((item) => item.textContent);
    expect(items[0]).to.match(/^No\. 2 First name: /);
    expect(items.at(-1)).to.match(/^No\. 2 E-mail: /);
    // the list describes the table for screen readers
    expect(table.getAttribute('aria-describedby')).to.equal(list.id);
  });

  it("server 422 errors on users.{i}.{field} mark the cell of that learner's row (blank rows before it counted)", async () => {
    const users = [
      { firstName: 'A', lastName: 'A', kanaFirstName: 'あ', kanaLastName: 'あ', email: 'a@example.com' },
      { firstName: 'B', lastName: 'B', kanaFirstName: 'い', kanaLastName: 'い', email: 'b@example.com' },
    ];
    const { table, view, rerender } = await show({ users });
    // a blank row between them: item 1 now sits on grid row 3
    typeInto(view, table, 1, 0, 'C');
    typeInto(view, table, 1, 0, '');
    const englishT = en.getFixedT('en');
    rerender({ users, extraErrors: serverErrorsToErrorSchema([{ field: 'users.1.email', code: 'duplicated' }], englishT) });
    await waitFor(() => expect(cellAt(table, 1, 4).classList.contains('learner-grid__cell--error')).to.equal(true));
    expect(view.getByText('No. 2 E-mail: Duplicate data.')).to.exist;
  });

  it("repeated e-mails get 'duplicated' on each of their rows (uniqueFields), ignoring case", async () => {
    const { table, view } = await show({
      users: [
        { firstName: 'A', lastName: 'A', kanaFirstName: 'あ', kanaLastName: 'あ', email: 'same@example.com' },
        { firstName: 'B', lastName: 'B', kanaFirstName: 'い', kanaLastName: 'い', email: 'other@example.com' },
        { firstName: 'C', lastName: 'C', kanaFirstName: 'う', kanaLastName: 'う', email: 'Same@Example.com' },
      ],
    });
    expect(cellAt(table, 0, 4).classList.contains('learner-grid__cell--error')).to.equal(true);
    expect(cellAt(table, 1, 4).classList.contains('learner-grid__cell--error')).to.equal(false);
    expect(cellAt(table, 2, 4).classList.contains('learner-grid__cell--error')).to.equal(true);
    expect(view.getByText('No. 1 E-mail: Duplicate data.')).to.exist;
    expect(view.getByText('No. 3 E-mail: Duplicate data.')).to.exist;
  });

  it('the heading shows the maximum worded per group type; more rows than the maximum show the limit message with its help link', async () => {
    const learner = (n: number) => ({ firstName: `F${n}`, lastName: 'L', kanaFirstName: 'ふ', kanaLastName: 'え', email: `u${n}@example.com` });
    const { view, table } = await show({ options: { ...OPTIONS, maximum: 2 }, users: [learner(1), learner(2)] });
    expect(view.getByRole('heading', { name: 'Users (up to 2 people)' })).to.exist;
    expect(view.queryByRole('alert')).to.equal(null);
    typeInto(view, table, 2, 0, 'Third');
    const alert = await view.findByRole('alert');
    expect(alert.textContent).to.contain('The number of users exceeds the maximum (2).');
    expect(within(alert).getByRole('link', { name: 'About the maximum number of users' }).getAttribute('href')).to.equal('https://www.example.com/faq/learner-limit/');
    cleanup();
    // emba: subjects × users, the maximum shared by the selected subjects (floor(9 / 2)), with the multi wording
    const multi = await show({ options: { ...OPTIONS, maximum: 9, maximumDivisor: 2, heading: { ...OPTIONS.heading, by: 'multi' } } });
    expect(multi.view.getByRole('heading', { name: /^Users \(up to 4 people for the selected subjects/ })).to.exist;
  });

  it('a header click selects its row, its column; the corner selects everything', async () => {
    const { table } = await show();
    const selected = () => [...table.querySelectorAll('.Spreadsheet__header--selected')].map((header) => header.textContent);
    fireEvent.click(within(table).getByRole('rowheader', { name: '3' }));
    expect(selected()).to.deep.equal(['3']);
    fireEvent.click(within(table).getByRole('columnheader', { name: 'E-mail' }));
    expect(selected()).to.deep.equal(['E-mail']);
    fireEvent.keyDown(within(table).getByRole('columnheader', { name: 'Last name' }), { key: 'Enter' });
    expect(selected()).to.deep.equal(['Last name']);
    fireEvent.click(within(table).getByRole('columnheader', { name: 'Select all cells' }));
    expect(selected()).to.have.length(1 + 5 + 10);
  });

  it('a pasted block of 3 rows × 5 columns fills the rows from the active cell, and rows beyond the end extend the grid', async () => {
    const { table, view, latest } = await show({ options: { ...OPTIONS, rows: 3 } });
    const block = ['Taro\tYamada\tたろう\tやまだ\ttaro@example.com', 'Jiro\tSato\tじろう\tさとう\tjiro@example.com', 'Saburo\tIto\tさぶろう\tいとう\tsaburo@example.com'].join('\n');
    paste(view, table, 1, 0, block);
    expect(gridTexts(table)).to.have.length(4);
    expect(gridTexts(table)[3]).to.deep.equal(['Saburo', 'Ito', 'さぶろう', 'いとう', 'saburo@example.com']);
    await waitFor(() => expect(latest()).to.have.length(3));
    expect(latest()![2]).to.deep.equal({ firstName: 'Saburo', lastName: 'Ito', kanaFirstName: 'さぶろう', kanaLastName: 'いとう', email: 'saburo@example.com' });
  });

  it("'Pasting…' shows while 5 or more cells change at once (SPEC §9), not for 4", async () => {
    const { table, view, latest } = await show();
    const status = view.getByRole('status');
    paste(view, table, 0, 0, 'a\tb\tc\td');
    expect(status.textContent).to.equal('');
    expect(latest()).to.deep.equal([{ firstName: 'a', lastName: 'b', kanaFirstName: 'c', kanaLastName: 'd', email: '' }]);
    paste(view, table, 1, 0, 'e\tf\tg\th\ti@example.com');
    expect(status.textContent).to.equal('Pasting…');
    await waitFor(() => expect(latest()).to.have.length(2));
    expect(status.textContent).to.equal('');
  });

  it('columns pasted beyond the grid are dropped', async () => {
    const { table, view, latest } = await show();
    paste(view, table, 0, 3, 'x\ty@example.com\textra\tmore');
    expect(gridTexts(table)[0]).to.deep.equal(['', '', '', 'x', 'y@example.com']);
    await waitFor(() => expect(latest()).to.deep.equal([{ firstName: '', lastName: '', kanaFirstName: '', kanaLastName: 'x', email: 'y@example.com' }]));
  });
});
