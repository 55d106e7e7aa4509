/** engine/forms/decimalSeparator.ts: the number fields' decimal mark is the portal's languages', asked of no Intl at render. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import getDecimalSeparator from '../../../../src/client/engine/forms/decimalSeparator.js';
import { LANGUAGES } from '../../../../src/common/languages.js';

const decimalMarkOf = (language: string) => new Intl.NumberFormat(language).formatToParts(1.1).find((part) => part.type === 'decimal')?.value;

describe('client/engine/forms/decimalSeparator', () => {
  it('is the decimal mark of every language the portal speaks', () => {
    for (const language of LANGUAGES) expect(decimalMarkOf(language), language).to.equal(getDecimalSeparator());
  });

  it("stands in for the module RJSF's number fields import (webpack.config.ts replaces it by this name)", () => {
    expect(readFileSync('node_modules/@rjsf/utils/lib/index.js', 'utf8')).to.include('from "./getDecimalSeparator.js"');
    expect(readFileSync('webpack.config.ts', 'utf8')).to.include('src/client/engine/forms/decimalSeparator.ts');
  });
});
