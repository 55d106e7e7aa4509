/**
 * 'LearnerGrid' (ui:field): the learner grid of SPEC 2.11 step 5, see learnerGrid/LearnerGrid.tsx. The grid and
 * react-spreadsheet load as a chunk of their own when a form shows one (DESIGN §7: never on the first page).
 */
import { lazy, Suspense, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '@rjsf/utils';

type GridModule = typeof import('./learnerGrid/LearnerGrid.js');

let loadGrid: () => Promise<GridModule> = () => import(/* webpackChunkName: "learner-grid" */ './learnerGrid/LearnerGrid.js');

/** Tests hand the module over directly (under Node a dynamic import may load a second copy of react-i18next). */
export function setLearnerGridLoader(loader: () => Promise<GridModule>): void {
  loadGrid = loader;
}

const Grid = lazy(() => loadGrid());

function Loading(): ReactElement {
  const { t } = useTranslation();
  return (
    <p className="learner-grid__loading" role="status">
      {t('learnerGrid.loading')}
    </p>
  );
}

export function LearnerGridField(props: FieldProps): ReactElement {
  return (
    <Suspense fallback={<Loading />}>
      <Grid {...props} />
    </Suspense>
  );
}
