import { expect } from 'chai';
import {
  cellErrors,
  changedCells,
  duplicateErrors,
  effectiveMaximum,
  ERROR_CELL_CLASS,
  fromValue,
  markErrors,
  rowsFor,
  sameErrors,
  toValue,
  withLocks,
  type GridMatrix,
} from '../../../src/client/widgets/learnerGrid/rows.js';
import { orderedColumns, readOptions } from '../../../src/client/widgets/learnerGrid/options.js';

const FIELDS = ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'];
const matrixOf = (rows: string[][]): GridMatrix => rows.map((cells) => cells.map((value) => ({ value })));

describe('learnerGrid rows: the grid ↔ the form value (SPEC §3, §5)', () => {
  it('a value becomes rows padded to the minimum; its items keep their other fields (id) beside the grid, never a key', () => {
    const { matrix, rows } = fromValue([{ id: 4, key: 9, firstName: 'A', lastName: 'B', kanaFirstName: 'c', kanaLastName: 'd', email: 'e@example.com' }], FIELDS, 3);
    expect(matrix.map((cells) => cells.map((cell) => cell?.value))).to.deep.equal([['A', 'B', 'c', 'd', 'e@example.com'], ['', '', '', '', ''], ['', '', '', '', '']]);
    expect(rows.map((row) => row.rest)).to.deep.equal([{ id: 4 }, {}, {}]);
    expect(new Set(rows.map((row) => row.key)).size).to.equal(3);
  });

  it('a pasted 3×5 block below the last row: the rows grow, and the value lists the non-blank rows in order with where each sits', () => {
    const grid = fromValue([], FIELDS, 2);
    // react-spreadsheet pads the data with the pasted rows (undefined cells where nothing was pasted)
    const pasted: GridMatrix = [
      grid.matrix[0]!,
      [{ value: 'Taro' }, { value: 'Yamada' }, { value: 'たろう' }, { value: 'やまだ' }, { value: ' taro@example.com ' }],
      [{ value: 'Jiro' }, { value: 'Sato' }, { value: 'じろう' }, { value: 'さとう' }, { value: 'jiro@example.com' }],
      [{ value: 'Saburo' }, undefined, { value: 'さぶろう' }, { value: 'いとう' }, { value: 'saburo@example.com' }],
    ];
    const rows = rowsFor(pasted, grid.rows);
    expect(rows).to.have.length(4);
    // 15 cells pasted, one of them empty: 14 changed
    expect(changedCells(grid.matrix, pasted)).to.equal(14);
    const { value, gridRowOf } = toValue(pasted, rows, FIELDS);
    expect(gridRowOf).to.deep.equal([1, 2, 3]);
    expect(value[0]).to.deep.equal({ firstName: 'Taro', lastName: 'Yamada', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'taro@example.com' });
    expect(value[2]).to.deep.equal({ firstName: 'Saburo', lastName: '', kanaFirstName: 'さぶろう', kanaLastName: 'いとう', email: 'saburo@example.com' });
  });

  it('errors of item i land on the grid row of item i; duplicates are found ignoring case', () => {
    const matrix = matrixOf([['A', '', '', '', 'x@example.com'], ['', '', '', '', ''], ['B', '', '', '', 'X@example.com']]);
    const { value, gridRowOf } = toValue(matrix, rowsFor(matrix, []), FIELDS);
    const { cells, own } = cellErrors({ __errors: ['too many'], 1: { email: { __errors: ['Duplicate data.'] }, __errors: ['row'] } }, gridRowOf, FIELDS);
    expect(own).to.deep.equal(['too many']);
    expect(cells).to.deep.equal([
      { row: 2, field: undefined, message: 'row' },
      { row: 2, field: 'email', message: 'Duplicate data.' },
    ]);
    expect(duplicateErrors(value, gridRowOf, ['email'], 'dup').map((error) => error.row)).to.deep.equal([0, 2]);
  });

  it('markErrors marks exactly the cells in error and hands back the same matrix when nothing changes', () => {
    const matrix = matrixOf([['A', 'B', 'c', 'd', 'e'], ['', '', '', '', '']]);
    const marked = markErrors(matrix, [{ row: 0, field: 'email', message: 'm' }], FIELDS);
    expect(marked[0]![4]!.className).to.equal(ERROR_CELL_CLASS);
    expect(marked[1]).to.equal(matrix[1]);
    expect(markErrors(marked, [{ row: 0, field: 'email', message: 'm' }], FIELDS)).to.equal(marked);
    expect(markErrors(marked, [], FIELDS)[0]![4]!.className).to.equal(undefined);
  });

  it('sameErrors: equal errors in the same order are the same (the grid then keeps its marked cells)', () => {
    const error = { row: 0, field: 'email', message: 'm' };
    expect(sameErrors([error], [{ ...error }])).to.equal(true);
    expect(sameErrors([error], [{ ...error, message: 'other' }])).to.equal(false);
    expect(sameErrors([error], [error, { ...error, row: 1 }])).to.equal(false);
  });

  it('the maximum is shared by the selected subjects (emba: floor(maximum / count)); none without a number', () => {
    expect(effectiveMaximum(30, undefined)).to.equal(30);
    expect(effectiveMaximum(30, [1, 2, 3, 4])).to.equal(7);
    expect(effectiveMaximum(30, [])).to.equal(30);
    expect(effectiveMaximum(null, [1])).to.equal(undefined);
    expect(effectiveMaximum('$data.serviceGroup.maximumUsers', 2)).to.equal(undefined);
  });
});

describe('learnerGrid options', () => {
  const columns = FIELDS.map((field) => ({ field, label: `learnerGrid.columns.${field}` }));

  it('orders the columns by language: ja puts last names first, en keeps the given order', () => {
    const order = { ja: ['lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email'] };
    expect(orderedColumns(columns, order, 'ja').map((column) => column.field)).to.deep.equal(order.ja);
    expect(orderedColumns(columns, order, 'ja-JP').map((column) => column.field)).to.deep.equal(order.ja);
    expect(orderedColumns(columns, order, 'en').map((column) => column.field)).to.deep.equal(FIELDS);
  });

  it('defaults: 10 rows and the pasting indicator at 5 cells (SPEC §9); the heading key chosen by a value', () => {
    const options = readOptions({ heading: { by: 'multi', keys: { multi: 'learnerGrid.heading.multi' }, default: 'learnerGrid.heading.default' } }, undefined, effectiveMaximum);
    expect(options.rows).to.equal(10);
    expect(options.pasteIndicatorCells).to.equal(5);
    expect(options.headingKey).to.equal('learnerGrid.heading.multi');
    expect(readOptions({ heading: { by: 'unknown', keys: {}, default: 'x' } }, undefined, effectiveMaximum).headingKey).to.equal('x');
  });

  it("without columns, the items' string properties are the columns, labelled by their titles", () => {
    const options = readOptions({}, { properties: { id: { type: 'integer' }, name: { type: 'string', title: 'users.name' } } }, effectiveMaximum);
    expect(options.columns).to.deep.equal([{ field: 'name', label: 'users.name' }]);
  });
});

describe('learnerGrid row locks (issue 17: the class deadlines of SPEC §4)', () => {
  const learner = (id: number, name: string) => ({ id, firstName: name, lastName: 'L', kanaFirstName: 'k', kanaLastName: 'l', email: `${name}@example.com` });
  const texts = (matrix: GridMatrix) => matrix.map((cells) => cells.map((cell) => cell?.value ?? ''));

  it('kept rows (with an id) come back as they were when edited or blanked; new rows take the edit', () => {
    const grid = fromValue([learner(4, 'a'), learner(5, 'b')], FIELDS, 3);
    const edited = matrixOf([['x', 'L', 'k', 'l', 'x@example.com'], ['', '', '', '', ''], ['n', 'N', 'n', 'n', 'n@example.com']]);
    const result = withLocks(grid.matrix, edited, grid.rows, { kept: true, added: false });
    expect(texts(result)).to.deep.equal([
      ['a', 'L', 'k', 'l', 'a@example.com'],
      ['b', 'L', 'k', 'l', 'b@example.com'],
      ['n', 'N', 'n', 'n', 'n@example.com'],
    ]);
    expect(toValue(result, grid.rows, FIELDS).value.map((item) => item.id)).to.deep.equal([4, 5, undefined]);
  });

  it('with adding locked, a new row stays blank and a paste below the last row adds nothing; kept rows may change', () => {
    const grid = fromValue([learner(4, 'a')], FIELDS, 2);
    const pasted = matrixOf([['z', 'L', 'k', 'l', 'a@example.com'], ['n', 'N', 'n', 'n', 'n@example.com'], ['m', 'M', 'm', 'm', 'm@example.com']]);
    const result = withLocks(grid.matrix, pasted, grid.rows, { kept: false, added: true });
    expect(texts(result)).to.deep.equal([['z', 'L', 'k', 'l', 'a@example.com'], ['', '', '', '', '']]);
  });

  it('nothing locked: the edit as it is', () => {
    const grid = fromValue([learner(4, 'a')], FIELDS, 1);
    const edited = matrixOf([['', '', '', '', '']]);
    expect(withLocks(grid.matrix, edited, grid.rows, { kept: false, added: false })).to.equal(edited);
  });
});
