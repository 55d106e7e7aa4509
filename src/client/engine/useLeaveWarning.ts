/**
 * Asks before leaving a page with unsaved changes (SPEC 2.2): in-app navigation outside `scopePath` through
 * react-router's blocker, and closing or reloading the tab through `beforeunload`.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker } from 'react-router-dom';

export function useLeaveWarning(active: boolean, scopePath: string, stillActive: () => boolean = () => true): void {
  const { t } = useTranslation();
  // stillActive is asked at navigation time: a saga may navigate right after the store changed (e.g. a form saved and
  // goes on to another page) and before this component re-rendered with the new `active`
  const blocker = useBlocker(
    ({ nextLocation }) =>
      active && !(nextLocation.pathname === scopePath || nextLocation.pathname.startsWith(`${scopePath}/`)) && stillActive(),
  );

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(t('common.leaveWarning'))) blocker.proceed();
    else blocker.reset();
  }, [blocker, t]);

  useEffect(() => {
    if (!active) return undefined;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
