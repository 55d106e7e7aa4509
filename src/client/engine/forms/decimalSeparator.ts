/**
 * RJSF's getDecimalSeparator (webpack.config.ts puts this in place of @rjsf/utils' own): the decimal mark of the
 * languages the portal speaks, '.' in Japanese and English alike (its test holds that for every language of
 * common/languages.ts). RJSF's own asks Intl.NumberFormat for the browser's languages at every number field's render;
 * a page's first Intl.NumberFormat costs ~14 ms, 55 ms at Lighthouse's 4× CPU, inside the wizard's longest task
 * (issue 47, as ChartView's formatCount found for Home). And the browser's language is not the page's: a German
 * browser would have read '1.5' on the English page as fifteen.
 */
export default function getDecimalSeparator(): string {
  return '.';
}
