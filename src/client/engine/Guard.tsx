/**
 * Applies a screen's access class (SPEC 2.1) with the session from the store, and for sensitive screens the
 * re-authentication check (SPEC 2.6) before the page renders.
 */
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Navigate, useLocation } from 'react-router-dom';
import type { AccessClass } from '../../common/screens.js';
import { gloplaId, hasSession, isHeldAtSetup, isManager, type SessionRootState } from '../state/session.js';
import type { FeatureFlag, FeatureFlagsRootState } from './featureFlags.js';
import { decideAccess, TOP_PATH } from './guard.js';
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

/** A screen behind a feature flag (SPEC 2.14): the loader until the flags are known, then the screen or top. */
function Flagged({ flag, children }: { flag: string; children: ReactNode }): ReactElement {
  const enabled = useSelector((state: FeatureFlagsRootState) => state.featureFlags[flag as FeatureFlag]);
  if (enabled === undefined) return <Loader />;
  return enabled ? <>{children}</> : <Navigate to={TOP_PATH} replace />;
}

export function Guard({ access, reauthentication, flag, children }: { access: AccessClass; reauthentication?: boolean; flag?: string; children: ReactNode }): ReactElement {
  const location = useLocation();
  const context = useSelector((state: SessionRootState) => ({
    hasSession: hasSession(state),
    gloplaId: gloplaId(state),
    isManager: isManager(state),
    heldAtSetup: isHeldAtSetup(state),
  }), (a, b) => a.hasSession === b.hasSession && a.gloplaId === b.gloplaId && a.isManager === b.isManager && a.heldAtSetup === b.heldAtSetup);
  const decision = decideAccess(access, { ...context, location });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace={decision.replace} state={decision.state} />;
  const content = flag ? <Flagged flag={flag}>{children}</Flagged> : children;
  if (reauthentication) return <Reauthenticated>{content}</Reauthenticated>;
  return <>{content}</>;
}
