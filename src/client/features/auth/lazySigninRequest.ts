/**
 * The sign-in request's code (signinRequest.ts: verification state, PKCE, the provider's URLs), a chunk of its own
 * loaded as the admin signs in or out: a signed-in page's first load does not carry it (issue 26).
 */
export const loadSigninRequest = () => import(/* webpackChunkName: "signin-request" */ './signinRequest.js');

export type SigninRequestModule = Awaited<ReturnType<typeof loadSigninRequest>>;
