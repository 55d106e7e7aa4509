/** Applies a screen's access class (SPEC 2.1) with the session from the store. */
import type { ReactElement, ReactNode } from 'react';
import { useSelector } from 'react-redux';
import { Navigate, useLocation } from 'react-router-dom';
import type { AccessClass } from '../../common/screens.js';
import { gloplaId, hasSession, isManager, type SessionRootState } from '../state/session.js';
import { decideAccess } from './guard.js';

export function Guard({ access, children }: { access: AccessClass; children: ReactNode }): ReactElement {
  const location = useLocation();
  const context = useSelector((state: SessionRootState) => ({
    hasSession: hasSession(state),
    gloplaId: gloplaId(state),
    isManager: isManager(state),
  }), (a, b) => a.hasSession === b.hasSession && a.gloplaId === b.gloplaId && a.isManager === b.isManager);
  const decision = decideAccess(access, { ...context, location });
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace={decision.replace} state={decision.state} />;
  return <>{children}</>;
}
