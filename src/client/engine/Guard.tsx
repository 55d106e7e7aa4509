/**
 * Applies a screen's access class (SPEC 2.1) with the session from the store, and for sensitive screens the
 * re-authentication check (SPEC 2.6) before the page renders.
 */
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Navigate, useLocation } from 'react-router-dom';
import type { AccessClass } from '../../common/screens.js';
import { gloplaId, hasSession, isManager, type SessionRootState } from '../state/session.js';
import { decideAccess } from './guard.js';
import { Loader } from './Loader.js';
import { reauthenticationCheckRequested, reauthenticationPassed, type ReauthenticationRootState } from './reauthentication.js';

function Reauthenticated({ children }: { children: ReactNode }): ReactElement {
  const dispatch = useDispatch();
  const { pathname, search } = useLocation();
  const path = `${pathname}${search}`;
  const passed = useSelector((state: ReauthenticationRootState) => reauthenticationPassed(path)(state));
  useEffect(() => {
    dispatch(reauthenticationCheckRequested({ path }));
  }, [dispatch, path]);
  return passed ? <>{children}</> : <Loader />;
}

export function Guard({ access, reauthentication, children }: { access: AccessClass; reauthentication?: boolean; children: ReactNode }): ReactElement {
  const location = useLocation();
  const context = useSelector((state: SessionRootState) => ({
    hasSession: hasSession(state),
    gloplaId: gloplaId(state),
    isManager: isManager(state),
  }), (a, b) => a.hasSession === b.hasSession && a.gloplaId === b.gloplaId && a.isManager === b.isManager);
  const decision = decideAccess(access, { ...context, location });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace={decision.replace} state={decision.state} />;
  if (reauthentication) return <Reauthenticated>{children}</Reauthenticated>;
  return <>{children}</>;
}
