/**
 * The table block's cells (engine/screen/blocks/tableParts.tsx, CellView.tsx): a column of one text shows the text
 * alone in its cell (no box: a table of a hundred rows has several hundred such cells to style and lay out, issue 47);
 * a column of several cells, or of a mark, keeps them stacked in the cell's box, each in its own element.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { ScreenDefinition, TableBlock } from '../../../../../src/common/screens.js';
import { englishI18n } from '../../../support/i18n.js';
import { blockContext, renderBlocks } from './support.js';

const TABLE: TableBlock = {
  type: 'table',
  rows: '$data.people',
  caption: 'gallery.screens.caption',
  columns: [
    { title: 'gallery.screens.id', cells: [{ type: 'text', value: '$item.id' }] },
    { title: 'gallery.screens.title', cells: [{ type: 'text', value: '$item.name' }, { type: 'text', value: '$item.email' }] },
    { title: 'gallery.screens.access', cells: [{ type: 'mark', value: '$item.role' }] },
  ],
};

const SCREEN: ScreenDefinition = { id: 'test-table', path: '/test/table', access: 'admin', width: 'wide', title: 'gallery.blocks.heading', breadcrumb: [], blocks: [TABLE] };

async function renderTable() {
  const instance: i18n = await englishI18n();
  const people = [
    { id: 7, name: 'Yamada Taro', email: 'taro@example.com', role: 'manager' },
    { id: 8, name: 'Sato Hanako', email: 'hanako@example.com', role: 'member' },
  ];
  return renderBlocks(SCREEN, blockContext({ people }, 'en'), instance);
}

describe('engine: the table block’s cells', () => {
  afterEach(cleanup);

  it('a column of one text: the text alone in its cell, no element around it', async () => {
    const view = await renderTable();
    const idCells = [...view.container.querySelectorAll('tbody tr')].map((row) => row.querySelectorAll('td')[0]!);
    expect(idCells.map((cell) => cell.textContent)).to.deep.equal(['7', '8']);
    for (const cell of idCells) expect(cell.children, cell.outerHTML).to.have.length(0);
  });

  it('a column of several cells, or of a mark, keeps each in its own element inside the cell’s box', async () => {
    const view = await renderTable();
    const [, names, roles] = [...view.container.querySelector('tbody tr')!.querySelectorAll('td')];
    const stacked = names!.querySelector(':scope > .table__cell')!;
    expect([...stacked.children].map((child) => child.textContent)).to.deep.equal(['Yamada Taro', 'taro@example.com']);
    expect(roles!.querySelector(':scope > .table__cell > .mark')?.textContent).to.equal('manager');
  });
});
