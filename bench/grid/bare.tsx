/**
 * The learner grid's floor (bench/grid.ts): bare react-spreadsheet with the grid's starting shape (10 rows, 5 columns)
 * and nothing else. Bundled by the benchmark with esbuild, never part of the product's build.
 */
import { useState, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import Spreadsheet, { type CellBase, type Matrix } from 'react-spreadsheet';

const empty = (): Matrix<CellBase> => Array.from({ length: 10 }, () => Array.from({ length: 5 }, () => ({ value: '' })));

function Bare(): ReactElement {
  const [data, setData] = useState(empty);
  return <Spreadsheet data={data} onChange={setData} />;
}

createRoot(document.getElementById('root')!).render(<Bare />);
