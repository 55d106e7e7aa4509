import { expect } from 'chai';
import { changedRowsAsRowErrors, normalized, normalizeRowErrors } from '../../../../src/client/engine/screen/normalizers.js';

describe('Outcome.normalize rules (engine/screen/normalizers.ts)', () => {
  it("changedRows: a bulk update's 412 rows as row errors on id (changedMeanwhile), one per line, sorted, the unreadable dropped (issue 28)", () => {
    const rows = [{ rowNo: 9, changedBy: null }, { rowNo: 3 }, { rowNo: 3 }, { changedBy: {} }, null];
    expect(changedRowsAsRowErrors(rows)).to.deep.equal([
      { field: 'id', code: 'changedMeanwhile', meta: { rowNo: 3 } },
      { field: 'id', code: 'changedMeanwhile', meta: { rowNo: 9 } },
    ]);
    expect(changedRowsAsRowErrors(undefined)).to.deep.equal([]);
  });

  it('rowErrors (SPEC §5): one error per row and field, items without rowNo, field or code dropped, sorted by row, name_id invalid_format as nameIdFormat', () => {
    const errors = [
      { field: 'email', code: 'cannotBeChanged', meta: { rowNo: 9 } },
      { field: 'name_id', code: 'invalid_format', meta: { rowNo: 3 } },
      { field: 'name_id', code: 'tooLong', meta: { rowNo: 3 } }, // the same row and field again
      { field: 'last_name', code: 'cannotBeChanged', meta: { rowNo: 3 } },
      { code: 'blank', meta: { rowNo: 4 } },
      { field: 'email', meta: { rowNo: 4 } },
      { field: 'email', code: 'blank', meta: {} },
      { field: 'email', code: 'blank' },
      null,
      'text',
      { field: 'last_name', code: 'invalid_format', meta: { rowNo: 2 } },
    ];
    expect(normalizeRowErrors(errors)).to.deep.equal([
      { field: 'last_name', code: 'invalid_format', meta: { rowNo: 2 } },
      { field: 'name_id', code: 'nameIdFormat', meta: { rowNo: 3 } },
      { field: 'last_name', code: 'cannotBeChanged', meta: { rowNo: 3 } },
      { field: 'email', code: 'cannotBeChanged', meta: { rowNo: 9 } },
    ]);
    expect(normalizeRowErrors(undefined)).to.deep.equal([]);
  });

  it('passes only the values named in normalize through their rule, and leaves null (cleared) alone', () => {
    const errors = [{ field: 'email', code: 'blank', meta: { rowNo: 2 } }, { field: 'email', code: 'taken', meta: { rowNo: 2 } }];
    expect(normalized({ rowErrors: errors, users: errors }, { rowErrors: 'rowErrors' })).to.deep.equal({ rowErrors: [errors[0]], users: errors });
    expect(normalized({ rowErrors: null }, { rowErrors: 'rowErrors' })).to.deep.equal({ rowErrors: null });
  });
});
