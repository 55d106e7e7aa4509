import { expect } from 'chai';
import { formatDate, formatDateTime, formatMonth, formatWeekdayDate } from '../../../src/client/engine/dates.js';
import { formatted, formatValue } from '../../../src/client/engine/screen/formats.js';

describe('date formats (SPEC section 9)', () => {
  it('writes yyyy-MM-dd in English', () => {
    expect(formatDate('2026-03-05', 'en')).to.equal('2026-03-05');
  });

  it('writes yyyy年M月d日 in Japanese, without leading zeros', () => {
    expect(formatDate('2026-03-05', 'ja')).to.equal('2026年3月5日');
  });

  it("with the short weekday: 'Tue, 2026-11-24' in English, '2026年11月24日(火)' in Japanese (SPEC 2.9, 2.11)", () => {
    expect(formatWeekdayDate('2026-11-24', 'en')).to.equal('Tue, 2026-11-24');
    expect(formatWeekdayDate('2026-11-24', 'ja')).to.equal('2026年11月24日(火)');
    expect(formatWeekdayDate('2026-11-29', 'ja')).to.equal('2026年11月29日(日)');
  });

  it("a month (a chart's categories): 'Jun 2026' in English, '2026年6月' in Japanese; what is no yyyy-MM as it is", () => {
    expect(formatMonth('2026-06', 'en')).to.equal('Jun 2026');
    expect(formatMonth('2026-12', 'ja')).to.equal('2026年12月');
    expect(formatMonth('2026-13', 'en')).to.equal('2026-13');
    expect(formatMonth('2026-06-01', 'ja')).to.equal('2026-06-01');
    expect(formatValue('2026-01', 'month', 'fr')).to.equal('2026年1月');
  });

  it('value formats of texts: dates in the page language (ja for an unknown one), lists joined by commas, others as they are', () => {
    expect(formatValue('2026-03-05', 'date', 'en')).to.equal('2026-03-05');
    expect(formatValue('2026-03-05', 'weekdayDate', 'fr')).to.equal('2026年3月5日(木)');
    expect(formatValue(['Marketing', '', null, 'Accounting'], 'list', 'en')).to.equal('Marketing, Accounting');
    expect(formatValue(undefined, 'date', 'en')).to.equal(undefined);
    expect(formatted({ date: '2026-03-05', name: 'x' }, { date: 'date' }, 'ja')).to.deep.equal({ date: '2026年3月5日', name: 'x' });
  });

  it('a moment to the second in the browser’s time zone (the activity log): yyyy-MM-dd HH:mm:ss, yyyy年M月d日 HH:mm:ss', () => {
    const moment = new Date(2026, 10, 24, 8, 5, 9); // local time
    expect(formatDateTime(moment, 'en')).to.equal('2026-11-24 08:05:09');
    expect(formatDateTime(moment, 'ja')).to.equal('2026年11月24日 08:05:09');
    expect(formatValue(moment.toISOString(), 'dateTime', 'en')).to.equal('2026-11-24 08:05:09');
  });

  it('a day alone is that day wherever the browser is, a time its day there; what is no date is shown as it is', () => {
    const evening = new Date(2026, 10, 24, 23, 30);
    expect(formatDate(evening.toISOString(), 'en')).to.equal('2026-11-24');
    expect(formatWeekdayDate('2026-01-04', 'en')).to.equal('Sun, 2026-01-04');
    expect(formatDate('not a date', 'ja')).to.equal('not a date');
    expect(formatDateTime('', 'en')).to.equal('');
    expect(formatMonth('2026-00', 'en')).to.equal('2026-00');
  });
});
