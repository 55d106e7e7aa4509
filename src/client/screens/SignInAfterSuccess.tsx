/**
 * Account activated and Password reset done (SPEC 2.4, 2.5): the screen's title and lead say it; after 2 s the browser
 * goes to sign-in.
 */
import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import { signInScheduleCancelled, signInScheduled, SUCCESS_REDIRECT_MS } from '../features/accountTokens/state.js';

export default function SignInAfterSuccess(): null {
  const dispatch = useDispatch();
  useEffect(() => {
    dispatch(signInScheduled({ delayMs: SUCCESS_REDIRECT_MS }));
    return () => void dispatch(signInScheduleCancelled());
  }, [dispatch]);
  return null;
}
