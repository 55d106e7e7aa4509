/**
 * The words of a screen's title and breadcrumb: a locale key, or a value of the screen's loaded data
 * ('$data.detail.service.name': Service Details is titled with the service's name). Empty until the data is there.
 */
import { useTranslation } from 'react-i18next';
import { useSelector } from 'react-redux';
import type { FormStep, ScreenDefinition, ScreenLink } from '../../../common/screens.js';
import { screenPath } from './navigation.js';
import { selectScreenData, type ScreenDataRootState } from './screenDataState.js';
import { resolveValue } from './values.js';

export function useScreenLabel(screen: ScreenDefinition | undefined): (label: string) => string {
  const { t } = useTranslation();
  const data = useSelector((root: ScreenDataRootState) => (screen ? selectScreenData(root, screen.id).values : undefined));
  return (label) => {
    if (!label.startsWith('$')) return t(label);
    const value = resolveValue(label, { data: data ?? {} });
    return value === undefined || value === null ? '' : String(value);
  };
}

/**
 * The path of a breadcrumb's link to a screen, its values read from the route's params and the loaded data (the
 * Service Details of an application's group); none while a value is missing (the data is not there yet).
 */
export function useScreenLinkPath(screen: ScreenDefinition | undefined, params: Record<string, string | undefined>): (link: ScreenLink) => string | undefined {
  const data = useSelector((root: ScreenDataRootState) => (screen ? selectScreenData(root, screen.id).values : undefined));
  return (link) => {
    try {
      return screenPath(link, { params, data: data ?? {} });
    } catch {
      return undefined;
    }
  };
}

/** The page title's label: the step's own (ScreenDefinition.stepTitles, SPEC 2.11's per step titles), else the screen's. */
export function titleOf(screen: ScreenDefinition, step: string | undefined): string {
  return (step && screen.stepTitles?.[step as FormStep]) || screen.title;
}
