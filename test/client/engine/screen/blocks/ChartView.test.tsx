/**
 * The chart block (engine/screen/blocks/ChartView.tsx) rendered by the block registry from points in the screen's
 * data (as a data call leaves them: camelCase keys): the SVG image named by its title, a stacked bar segment per
 * category and series, the legend, the y-axis, the table of its numbers for screen readers, the empty text, and the
 * months in the page's language.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import type { ChartBlock, ScreenDefinition } from '../../../../../src/common/screens.js';
import { axisTicks, formatCount } from '../../../../../src/client/engine/screen/blocks/ChartView.js';
import { englishI18n } from '../../../support/i18n.js';
import { blockContext, renderBlocks } from './support.js';

const CHART: ChartBlock = {
  type: 'chart',
  title: 'gallery.blocks.chart.title',
  caption: 'gallery.blocks.chart.caption',
  points: '$data.overview.learnersByMonth',
  x: 'month',
  series: 'serviceGroupName',
  value: 'learners',
  xFormat: 'month',
  empty: 'gallery.blocks.chart.empty',
};

const SCREEN: ScreenDefinition = { id: 'test-chart', path: '/test/chart', access: 'admin', width: 'wide', title: 'gallery.blocks.heading', breadcrumb: [], blocks: [CHART] };

/** June first, so the categories' order is the points' and not the calendar's; June's Library twice (they add up). */
const POINTS = [
  { month: '2026-06', serviceGroupName: 'Library', learners: 130 },
  { month: '2026-06', serviceGroupName: 'Leadership', learners: 12 },
  { month: '2026-05', serviceGroupName: 'Library', learners: 120 },
  { month: '2026-05', serviceGroupName: 'English', learners: 45 },
  { month: '2026-06', serviceGroupName: 'Library', learners: 2 },
  { month: '2026-07', serviceGroupName: 'English', learners: 1000 },
];

let instance: i18n;

async function renderChart(points: unknown[], language: 'en' | 'ja' = 'en') {
  instance ??= await englishI18n();
  await instance.changeLanguage(language);
  const view = await renderBlocks(SCREEN, blockContext({ overview: { learnersByMonth: points } }, language), instance);
  return { view };
}

/** The text of each cell of a table's rows, header row first. */
const cells = (table: HTMLElement) => [...table.querySelectorAll('tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('engine: the chart block', () => {
  afterEach(cleanup);

  it('an SVG image named by the title: a segment per category and series with learners, stacked, coloured as its series in the legend', async () => {
    const { view } = await renderChart(POINTS);
    const svg = await view.findByRole('img', { name: 'Learners by month' });
    expect(svg.tagName.toLowerCase()).to.equal('svg');
    const bars = [...svg.querySelectorAll('rect.chart__bar')];
    // June: Library and Leadership; May: Library and English; July: English (a series without learners draws nothing)
    expect(bars).to.have.length(5);
    const legend = [...view.container.querySelectorAll('.chart__legend-item')];
    expect(legend.map((item) => item.textContent)).to.deep.equal(['Library', 'Leadership', 'English']);
    const colour = (element: Element) => [...element.classList].find((name) => name.startsWith('chart__series--'));
    expect(legend.map((item) => colour(item.querySelector('.chart__swatch')!))).to.deep.equal(['chart__series--0', 'chart__series--1', 'chart__series--2']);
    expect(bars.map(colour)).to.deep.equal(['chart__series--0', 'chart__series--1', 'chart__series--0', 'chart__series--2', 'chart__series--2']);
    // June's segments stand on the axis and on each other; the tallest bar (July's 1,000) reaches the top tick
    const [library, leadership] = bars.map((bar) => ({ y: Number(bar.getAttribute('y')), height: Number(bar.getAttribute('height')) }));
    const baseline = Number(svg.querySelector('.chart__baseline')!.getAttribute('y1'));
    expect(library!.y + library!.height).to.be.closeTo(baseline, 0.11);
    expect(leadership!.y + leadership!.height).to.be.closeTo(library!.y, 0.11);
    expect(library!.height / leadership!.height).to.be.closeTo(132 / 12, 0.2);
    const ticks = [...svg.querySelectorAll('.chart__tick')];
    expect(ticks.map((tick) => tick.textContent)).to.deep.equal(['0', '500', '1,000']);
    expect(Number(bars[4]!.getAttribute('y'))).to.equal(Number(ticks[2]!.getAttribute('y')));
    expect([...svg.querySelectorAll('.chart__label')].map((label) => label.textContent)).to.deep.equal(['Jun 2026', 'May 2026', 'Jul 2026']);
    // the page's CSP allows no style attribute: the colours and the layout's text are CSS classes
    expect(view.container.querySelectorAll('.chart [style]')).to.have.length(0);
  });

  it('the same numbers as a table for screen readers: a row per month, a column per series and the total', async () => {
    const { view } = await renderChart(POINTS);
    const table = await view.findByRole('table', { name: 'Learners by month and service group' });
    expect(table.parentElement!.classList.contains('visually-hidden')).to.equal(true);
    expect(cells(table)).to.deep.equal([
      ['', 'Library', 'Leadership', 'English', 'Total'],
      ['Jun 2026', '132', '12', '0', '144'],
      ['May 2026', '120', '0', '45', '165'],
      ['Jul 2026', '0', '0', '1,000', '1,000'],
    ]);
    expect(within(table).getAllByRole('rowheader').map((header) => header.textContent)).to.deep.equal(['Jun 2026', 'May 2026', 'Jul 2026']);
    expect(within(table).getAllByRole('columnheader').map((header) => header.textContent)).to.deep.equal(['Library', 'Leadership', 'English', 'Total']);
  });

  it('in Japanese: the title, the months as 2026年6月 and the total column', async () => {
    const { view } = await renderChart(POINTS, 'ja');
    const svg = await view.findByRole('img', { name: '月別の受講者数' });
    expect([...svg.querySelectorAll('.chart__label')].map((label) => label.textContent)).to.deep.equal(['2026年6月', '2026年5月', '2026年7月']);
    const table = view.getByRole('table', { name: '月別・サービスグループ別の受講者数' });
    expect(cells(table)[0]).to.deep.equal(['', 'Library', 'Leadership', 'English', '合計']);
    expect(cells(table).slice(1).map((row) => row[0])).to.deep.equal(['2026年6月', '2026年5月', '2026年7月']);
  });

  it('without points: the empty text, no image and no table', async () => {
    const { view } = await renderChart([]);
    await view.findByText('No learners in this period.');
    expect(view.queryByRole('img')).to.equal(null);
    expect(view.queryByRole('table')).to.equal(null);
    expect(view.container.querySelector('.chart')).to.equal(null);
  });

  it('y-axis ticks: about four round steps from 0 past the largest bar, whole steps for whole numbers', () => {
    expect(axisTicks(1000, true)).to.deep.equal([0, 500, 1000]);
    expect(axisTicks(165, true)).to.deep.equal([0, 50, 100, 150, 200]);
    expect(axisTicks(7, true)).to.deep.equal([0, 2, 4, 6, 8]);
    expect(axisTicks(2, true)).to.deep.equal([0, 1, 2]);
    expect(axisTicks(0.3, false)).to.deep.equal([0, 0.1, 0.2, 0.3]);
    expect(axisTicks(0, true)).to.deep.equal([0, 1]);
  });

  it('counts with thousands grouped as both languages write them, up to three decimals', () => {
    expect([0, 7, 999, 1000, 1234567, -4321, 2.5, 0.12345].map(formatCount)).to.deep.equal(['0', '7', '999', '1,000', '1,234,567', '-4,321', '2.5', '0.123']);
  });
});
