/**
 * The chart block: a bar per category, stacked of a segment per series, drawn as plain SVG — no chart library: the
 * page's Content-Security-Policy allows no inline style, and one would weigh on the blocks' chunk. The colours are CSS
 * classes (a palette in styles.css, each colour at least 3:1 against white); the geometry is SVG attributes. The SVG
 * is one image named by the title; its numbers are a table for screen readers.
 */
import { useId, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartBlock } from '../../../../common/screens.js';
import { formatValue } from '../formats.js';
import { resolveValue } from '../values.js';
import type { BlockProps } from './shared.js';

/** The colours of styles.css (.chart__series--0 to --7): a ninth series takes the first again. */
const PALETTE_SIZE = 8;

/** The drawing's measures in the SVG's units (its CSS pixels at full size; the SVG shrinks to a narrower page). */
const BAND = 72; // a category's width: room for '2026年12月' under its bar
const PLOT_HEIGHT = 200;
const TOP = 12;
const BOTTOM = 28; // the categories' labels
const RIGHT = 8;
const MIN_WIDTH = 320;
const BAR_WIDTH = 40;
/** About a tick label's character width at 12px, to give the y-axis's labels their room. */
const CHARACTER = 7;

/**
 * A count as English and Japanese both write it, thousands grouped by commas (1,234), up to three decimals. Not
 * Intl.NumberFormat: its first use in a page costs 12 ms (48 ms on Lighthouse's 4× slower CPU) of Home's start (issue 26).
 */
export function formatCount(value: number): string {
  const [whole, fraction] = String(Math.round(value * 1000) / 1000).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

export interface ChartData {
  /** The categories (values of `x`), in the order first seen. */
  categories: string[];
  /** The series' names, in the order first seen. */
  series: string[];
  /** By category, by series: the sum of the points' values (0 where none). */
  values: number[][];
  /** By category: the sum of its series. */
  totals: number[];
}

/** The points' numbers by category and series; a point without a category or a series is left out. */
export function chartData(points: unknown[], block: Pick<ChartBlock, 'x' | 'series' | 'value'>): ChartData {
  const categories = new Map<string, Map<string, number>>();
  const series = new Set<string>();
  for (const point of points) {
    if (!point || typeof point !== 'object') continue;
    const fields = point as Record<string, unknown>;
    const category = fields[block.x];
    const name = fields[block.series];
    if (category === undefined || category === null || name === undefined || name === null) continue;
    const sums = categories.get(String(category)) ?? new Map<string, number>();
    categories.set(String(category), sums);
    series.add(String(name));
    const value = Number(fields[block.value]);
    sums.set(String(name), (sums.get(String(name)) ?? 0) + (Number.isFinite(value) ? value : 0));
  }
  const values = [...categories.values()].map((sums) => [...series].map((name) => sums.get(name) ?? 0));
  return { categories: [...categories.keys()], series: [...series], values, totals: values.map((row) => row.reduce((sum, value) => sum + value, 0)) };
}

/**
 * The y-axis's ticks from 0 to at least `max`: about four steps of 1, 2 or 5 times a power of ten; of whole numbers,
 * a step of at least 1 (no 0.5 learners).
 */
export function axisTicks(max: number, whole: boolean): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(whole ? 1 : 0, [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough)!);
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, index) => Number((index * step).toPrecision(12)));
}

const round = (value: number) => Math.round(value * 10) / 10;
/** A bar's height: its segments from 0 up (a negative value is not drawn). */
const drawnTotal = (row: number[]) => row.reduce((sum, value) => sum + Math.max(0, value), 0);

export function ChartView({ block, context }: BlockProps<ChartBlock>): ReactElement | null {
  const { t } = useTranslation();
  const titleId = `${useId()}-title`;
  const points = resolveValue(block.points, context);
  const data = chartData(Array.isArray(points) ? points : [], block);
  if (data.categories.length === 0) return block.empty ? <p className="text">{t(block.empty)}</p> : null;
  const label = (category: string) => String(formatValue(category, block.xFormat, context.language));
  const ticks = axisTicks(Math.max(...data.values.map(drawnTotal)), data.values.every((row) => row.every(Number.isInteger)));
  const top = ticks.at(-1)!;
  const left = 16 + CHARACTER * Math.max(...ticks.map((tick) => formatCount(tick).length));
  const width = Math.max(MIN_WIDTH, left + RIGHT + BAND * data.categories.length);
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const band = (width - left - RIGHT) / data.categories.length;
  const barWidth = Math.min(BAR_WIDTH, band * 0.6);
  const y = (value: number) => round(TOP + PLOT_HEIGHT * (1 - value / top));
  return (
    <figure className="chart">
      <figcaption id={titleId} className="chart__title">
        {t(block.title)}
      </figcaption>
      <svg className="chart__svg" role="img" aria-labelledby={titleId} viewBox={`0 0 ${width} ${height}`} width={width} height={height}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="chart__grid" x1={left} x2={width - RIGHT} y1={y(tick)} y2={y(tick)} />
            <text className="chart__tick" x={left - 8} y={y(tick)}>
              {formatCount(tick)}
            </text>
          </g>
        ))}
        {data.categories.map((category, index) => {
          const center = left + band * (index + 0.5);
          let base = 0;
          return (
            <g key={category}>
              {data.values[index]!.map((value, seriesIndex) => {
                if (!(value > 0)) return null;
                const from = base;
                base += value;
                return (
                  <rect key={seriesIndex} className={`chart__bar chart__series--${seriesIndex % PALETTE_SIZE}`} x={round(center - barWidth / 2)} y={y(base)} width={round(barWidth)} height={round(y(from) - y(base))}>
                    {/* shown on hover: the number a bar's height only suggests */}
                    <title>{`${label(category)} ${data.series[seriesIndex]}: ${formatCount(value)}`}</title>
                  </rect>
                );
              })}
              <text className="chart__label" x={round(center)} y={TOP + PLOT_HEIGHT + 18}>
                {label(category)}
              </text>
            </g>
          );
        })}
        <line className="chart__baseline" x1={left} x2={width - RIGHT} y1={y(0)} y2={y(0)} />
      </svg>
      <ul className="chart__legend">
        {data.series.map((name, seriesIndex) => (
          <li key={name} className="chart__legend-item">
            <span className={`chart__swatch chart__series--${seriesIndex % PALETTE_SIZE}`} />
            {name}
          </li>
        ))}
      </ul>
      {/* a table is as wide as its content whatever its own width: the class clips a box around it */}
      <div className="visually-hidden">
        <table>
          <caption>{t(block.caption)}</caption>
          <thead>
            <tr>
              <td />
              {data.series.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
              <th scope="col">{t('chart.total')}</th>
            </tr>
          </thead>
          <tbody>
            {data.categories.map((category, index) => (
              <tr key={category}>
                <th scope="row">{label(category)}</th>
                {data.values[index]!.map((value, seriesIndex) => (
                  <td key={seriesIndex}>{formatCount(value)}</td>
                ))}
                <td>{formatCount(data.totals[index]!)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
