/**
 * What react-spreadsheet imports from fast-formula-parser, for a grid that takes no formulas (webpack's alias in
 * webpack.config.ts): a learner's cell shows the text as typed, '=' or not (LearnerGrid's DataViewer), so nothing is
 * ever evaluated — yet react-spreadsheet builds the parser's grammar (chevrotain) as its code loads, a ~300 ms task on
 * the wizard's first paint and most of the grid's chunk (issue 47). A formula here reads as its own text and refers to
 * no cell.
 */
export class FormulaError extends Error {
  static readonly REF = '#REF!';
}

export class DepParser {
  parse(): [] {
    return [];
  }
}

export default class FormulaParser {
  parse(formula: string): string {
    return `=${formula}`;
  }
}
