/**
 * Already completed (/activation/already-completed, SPEC 2.4): the title says the address is registered and that
 * sign-in follows shortly; of the spec's two readings this one goes to sign-in, after ALREADY_COMPLETED_REDIRECT_MS.
 */
import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { ALREADY_COMPLETED_REDIRECT_MS, signInScheduleCancelled, signInScheduled } from '../features/accountTokens/state.js';

export default function ActivationAlreadyCompleted(): null {
  const dispatch = useDispatch();
  useEffect(() => {
    dispatch(signInScheduled({ delayMs: ALREADY_COMPLETED_REDIRECT_MS }));
    return () => void dispatch(signInScheduleCancelled());
  }, [dispatch]);
  return null;
}
